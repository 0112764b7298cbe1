// A third-party Quarry engine: plain ESM JavaScript, no build step, no import from Quarry.
// The core calls buildRequest to get the HTTP request and parseResponse with the answer;
// it does all I/O itself (timeouts, outbound policy, suspension on typed failures).

const PAGE_SIZE = 10;

function stripTags(text) {
  return String(text ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export default {
  buildRequest({ query, settings }) {
    const params = new URLSearchParams({
      q: query.query,
      from: String((query.page - 1) * PAGE_SIZE),
      size: String(PAGE_SIZE),
      lang: query.language,
    });
    return { method: 'GET', url: `${settings.baseUrl}/api/search?${params}`, headers: { accept: 'application/json' } };
  },

  parseResponse(response) {
    const data = JSON.parse(response.body);
    const results = (data.hits ?? [])
      .filter((hit) => typeof hit.link === 'string' && /^https?:\/\//.test(hit.link))
      .map((hit) => ({
        url: hit.link,
        title: stripTags(hit.headline),
        snippet: stripTags(hit.summary),
        ...(hit.date ? { publishedDate: new Date(hit.date).toISOString() } : {}),
      }));
    return { results };
  },
};
