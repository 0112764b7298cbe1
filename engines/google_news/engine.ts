/**
 * Google News through Google's basic-HTML news tab (google.com/search?tbm=nws).
 * Each story is a /url?q=<target> link holding an h3 title and the outlet;
 * its snippet starts with the age ("10 hours ago · …"), turned into a date
 * relative to the response's Date header so parsing stays deterministic.
 */
import { defineEngine, type EngineResult, type HttpRequestSpec, type SafeSearch } from '../../core/engine.js';
import { assertNotBlocked, GOOGLE_TIME_RANGE, unwrapGoogleLink } from '../_google/google.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { parseHtmlDocument, textOf } from '../_lib/html-document.js';

export { unwrapGoogleLink } from '../_google/google.js';

const PAGE_SIZE = 10;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'medium', 2: 'high' };
const UNIT_MS: Record<string, number> = {
  minute: 60_000,
  min: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/** "10 hours ago" (against `now`) or "May 3, 2021" → ISO date; undefined otherwise. */
export function parseAge(text: string, now: Date | undefined): string | undefined {
  const relative = /^(\d+)\s+(min|minute|hour|day|week)s?\s+ago$/i.exec(text.trim());
  if (relative) {
    if (!now) return undefined;
    return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!).toISOString();
  }
  if (!/\b\d{4}\b/.test(text)) return undefined;
  const absolute = new Date(`${text.trim()} UTC`);
  return Number.isNaN(absolute.getTime()) ? undefined : absolute.toISOString();
}

function parseStories(html: string, now: Date | undefined): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const link of document.querySelectorAll('a[href^="/url?"]')) {
    const heading = link.querySelector('h3');
    const url = unwrapGoogleLink(link.getAttribute('href') ?? '');
    const title = textOf(heading);
    if (!heading || !url || !title) continue;
    const story = link.closest('.ZINbbc') ?? link.parentElement?.parentElement ?? link;
    const snippetBlocks = story.querySelectorAll('.s3v9rd');
    const snippetBlock = snippetBlocks[snippetBlocks.length - 1];
    const ageSpan = snippetBlock?.querySelector('span');
    const age = textOf(ageSpan);
    const fullText = textOf(snippetBlock);
    // The snippet text follows the age and a " · " separator.
    const snippet = age && fullText.startsWith(age) ? fullText.slice(age.length).replace(/^\s*·\s*/, '') : fullText;
    const result: EngineResult = { url, title, snippet };
    const published = age ? parseAge(age, now) : undefined;
    if (published) result.publishedDate = published;
    const source = textOf(link.querySelector('.UPmit')) || textOf(heading.nextElementSibling);
    if (source) result.extra = { source };
    results.push(result);
  }
  return results;
}

function responseDate(headers: Record<string, string>): Date | undefined {
  const date = headers.date ? new Date(headers.date) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      q: query.query,
      tbm: 'nws',
      start: (query.page - 1) * PAGE_SIZE,
      hl: query.language === 'all' ? undefined : query.language,
      tbs: query.timeRange ? GOOGLE_TIME_RANGE[query.timeRange] : undefined,
      safe: SAFE_SEARCH[query.safeSearch],
      gbv: 1,
      ie: 'UTF-8',
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', params) };
  },

  parseResponse(response) {
    const results = parseStories(response.body, responseDate(response.headers));
    assertNotBlocked('google_news', response, results.length);
    return { results };
  },
});
