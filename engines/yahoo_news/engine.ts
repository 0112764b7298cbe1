/**
 * Yahoo News search (news.search.yahoo.com/search?p=). Stories are the list
 * items of ol.searchCenterMiddle: an h4 link through Yahoo's /RU=…/ click
 * tracker, a p snippet, the outlet in span.s-source and the age in
 * span.s-time ("· 2 hours ago" or "May 10, 2021"). Relative ages are dated
 * against the response's Date header so parsing stays deterministic.
 */
import { defineEngine, EngineCaptchaError, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { decodeYahooRedirect, isYahooBlockPage } from '../yahoo/yahoo-serp.js';

const PAGE_SIZE = 10;
const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/** "· 2 hours ago" (against `now`) or "May 10, 2021" → ISO date. */
export function parseStoryAge(text: string, now: Date | undefined): string | undefined {
  const cleaned = text.replace(/^[\s·•-]+/, '').trim();
  const relative = /^(\d+)\s+(minute|hour|day|week)s?\s+ago$/i.exec(cleaned);
  if (relative)
    return now
      ? new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!).toISOString()
      : undefined;
  if (!/\b\d{4}\b/.test(cleaned)) return undefined;
  const date = new Date(`${cleaned} UTC`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function parseStories(html: string, now: Date | undefined): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('ol.searchCenterMiddle > li')) {
    const link = item.querySelector('h4 a');
    const url = decodeYahooRedirect(link?.getAttribute('href') ?? '');
    const title = textOf(link);
    if (!url || !title) continue;
    const result: EngineResult = { url, title, snippet: textOf(item.querySelector('p')) };
    const published = parseStoryAge(textOf(item.querySelector('.s-time')), now);
    if (published) result.publishedDate = published;
    const image = absoluteHttpUrl(
      item.querySelector('img')?.getAttribute('data-src') ?? item.querySelector('img')?.getAttribute('src'),
    );
    if (image) result.thumbnail = image;
    const source = textOf(item.querySelector('.s-source'));
    if (source) result.extra = { source };
    results.push(result);
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', { p: query.query, b: (query.page - 1) * PAGE_SIZE + 1 }),
    };
  },

  parseResponse(response) {
    const date = response.headers.date ? new Date(response.headers.date) : undefined;
    const results = parseStories(response.body, date && !Number.isNaN(date.getTime()) ? date : undefined);
    if (results.length === 0 && isYahooBlockPage(response.body, response.url)) {
      throw new EngineCaptchaError('yahoo news answered with a bot check or consent page');
    }
    return { results };
  },
});
