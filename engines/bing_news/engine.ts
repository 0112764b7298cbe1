/**
 * Bing News as RSS (www.bing.com/news/search?q=&format=rss). Item links go
 * through Bing's apiclick.aspx tracker, whose url parameter is the article.
 */
import { DOMParser } from 'linkedom';
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  stripMarkup,
  type EngineResult,
  type HttpRequestSpec,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 10;
/** qft interval codes: 7 = past 24 hours, 8 = past week, 9 = past month; Bing News has no year filter. */
const INTERVAL: Partial<Record<TimeRange, string>> = { day: '7', week: '8', month: '9' };

/** apiclick.aspx?…&url=<article> → the article; other links pass through. */
export function unwrapBingNewsLink(link: string): string | undefined {
  const absolute = absoluteHttpUrl(link);
  if (!absolute) return undefined;
  const url = new URL(absolute);
  if (/apiclick\.aspx$/i.test(url.pathname)) return absoluteHttpUrl(url.searchParams.get('url'));
  return absolute;
}

function childText(item: Element, tagName: string): string {
  return item.getElementsByTagName(tagName)[0]?.textContent?.trim() ?? '';
}

function parseFeed(xml: string): EngineResult[] {
  const document = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  const results: EngineResult[] = [];
  for (const item of document.getElementsByTagName('item')) {
    const url = unwrapBingNewsLink(childText(item, 'link'));
    const title = stripMarkup(childText(item, 'title'));
    if (!url || !title) continue;
    const result: EngineResult = { url, title, snippet: stripMarkup(childText(item, 'description')) };
    const published = isoDate(childText(item, 'pubDate'));
    if (published) result.publishedDate = published;
    const image = absoluteHttpUrl(childText(item, 'News:Image'));
    if (image) result.thumbnail = image;
    const source = childText(item, 'News:Source');
    if (source) result.extra = { source };
    results.push(result);
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const interval = query.timeRange ? INTERVAL[query.timeRange] : undefined;
    const params = {
      q: query.query,
      format: 'rss',
      first: (query.page - 1) * PAGE_SIZE + 1,
      setlang: query.language === 'all' ? undefined : query.language,
      qft: interval ? `interval="${interval}"` : undefined,
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/news/search', params) };
  },

  parseResponse(response) {
    const body = response.body.trim();
    if (!body.startsWith('<?xml') && !/^<rss[\s>]/.test(body)) {
      if (/captcha|unusual traffic/i.test(body)) throw new EngineCaptchaError('bing answered with a CAPTCHA page');
      if (body === '') throw new EngineParseError('bing_news answered with an empty body');
      throw new EngineParseError('bing_news answered with something other than RSS');
    }
    return { results: parseFeed(body) };
  },
});
