/**
 * Bing web results from its HTML page (www.bing.com/search). Organic results
 * are li.b_algo; newer pages wrap links in bing.com/ck/a?...&u=a1<base64url>.
 */
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  type EngineResult,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const PAGE_SIZE = 10;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };
const DAY_MS = 86_400_000;

/**
 * Bing's time filters: ez1 day, ez2 week, ez3 month; a year is a custom
 * range ez5_<from>_<to> in days since the epoch, so it depends on today's date.
 */
export function timeFilter(range: TimeRange, nowMs = Date.now()): string {
  if (range === 'year') {
    const today = Math.floor(nowMs / DAY_MS);
    return `ex1:"ez5_${today - 365}_${today}"`;
  }
  return `ex1:"${{ day: 'ez1', week: 'ez2', month: 'ez3' }[range]}"`;
}

/** bing.com/ck/a?...&u=a1<base64url of the target> → the target. */
export function unwrapBingLink(href: string): string | undefined {
  const absolute = absoluteHttpUrl(href, 'https://www.bing.com/');
  if (!absolute) return undefined;
  const url = new URL(absolute);
  const encoded = url.searchParams.get('u');
  if (url.hostname.endsWith('bing.com') && url.pathname === '/ck/a' && encoded?.startsWith('a1')) {
    return absoluteHttpUrl(Buffer.from(encoded.slice(2), 'base64url').toString('utf8'));
  }
  return absolute;
}

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('li.b_algo')) {
    const link = item.querySelector('h2 a');
    const url = unwrapBingLink(link?.getAttribute('href') ?? '');
    const title = textOf(link);
    if (!url || !title) continue;
    // The "WEB" badge Bing puts in front of snippets is not part of them.
    for (const badge of item.querySelectorAll('.algoSlug_icon')) badge.remove();
    const snippet = textOf(item.querySelector('.b_caption p') ?? item.querySelector('p'));
    results.push({ url, title, snippet });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params: Record<string, string | number | undefined> = { q: query.query };
    if (query.page > 1) {
      params.first = (query.page - 1) * PAGE_SIZE + 1;
      params.FORM = 'PERE';
    }
    if (query.timeRange) params.filters = timeFilter(query.timeRange);
    params.adlt = SAFE_SEARCH[query.safeSearch];
    if (query.language !== 'all') params.setlang = query.language;
    const region = query.region?.split('-')[1];
    if (region) params.cc = region.toUpperCase();
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', params) };
  },

  parseResponse(response) {
    const html = response.body;
    if (html.trim() === '') throw new EngineParseError('bing answered with an empty page');
    const results = parseResults(html);
    if (results.length === 0 && /captcha|unusual traffic|\/challenge\//i.test(html)) {
      throw new EngineCaptchaError('bing answered with a CAPTCHA challenge');
    }
    return { results };
  },
});
