/** ArchWiki full-text search through the MediaWiki action API (list=search, JSON). */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const ARTICLE_URL = 'https://wiki.archlinux.org/title/';

interface SearchHit {
  title?: string;
  pageid?: number;
  snippet?: string;
  timestamp?: string;
  wordcount?: number;
}

function hitToResult(hit: SearchHit): EngineResult | undefined {
  if (!hit.title) return undefined;
  return {
    url: `${ARTICLE_URL}${encodeURIComponent(hit.title.replace(/ /g, '_')).replace(/%2F/g, '/')}`,
    title: hit.title,
    // Snippets carry <span class="searchmatch"> highlights.
    snippet: stripMarkup(hit.snippet ?? ''),
    publishedDate: hit.timestamp,
    extra: { pageId: hit.pageid, words: hit.wordcount },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      action: 'query',
      list: 'search',
      srsearch: ctx.query.query,
      srlimit: String(PAGE_SIZE),
      sroffset: String((ctx.query.page - 1) * PAGE_SIZE),
      srprop: 'snippet|timestamp|wordcount',
      format: 'json',
      formatversion: '2',
    });
    return { method: 'GET', url: `${base}/api.php?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { query?: { search?: SearchHit[] }; error?: { code?: string; info?: string } };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('archwiki did not answer JSON');
    }
    if (body.error) throw new EngineParseError(`archwiki: ${body.error.code} ${body.error.info ?? ''}`.trim());
    return { results: (body.query?.search ?? []).map(hitToResult).filter((result) => result !== undefined) };
  },
});
