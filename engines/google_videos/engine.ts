/**
 * Google's video tab (www.google.com/search?tbm=vid) in its basic-HTML form:
 * results look like web results (a heading inside a /url?q= link) with a
 * thumbnail, a duration badge and a "date · uploaded by" line.
 */
import { defineEngine, EngineCaptchaError, EngineParseError, type EngineResult, type SafeSearch, type TimeRange } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { durationInText } from '../_video/duration.js';
import { unwrapGoogleLink } from '../google/engine.js';

const PAGE_SIZE = 10;
const TIME_RANGE: Record<TimeRange, string> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'active', 2: 'active' };
const HEADING = 'h3, [role="heading"]';
const SNIPPET_SELECTORS = ['.VwiC3b', '.s3v9rd', '.st', '.yDYNvb'];

function resultContainer(heading: Element): Element {
  let container = heading;
  while (container.parentElement && container.parentElement.querySelectorAll(HEADING).length <= 1) container = container.parentElement;
  return container;
}

function isBlockPage(html: string): boolean {
  return /id="captcha-form"|g-recaptcha|unusual traffic from your computer|captcha/i.test(html);
}

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  const seen = new Set<string>();
  for (const heading of document.querySelectorAll(HEADING)) {
    const link = heading.closest('a') ?? heading.querySelector('a');
    const url = unwrapGoogleLink(link?.getAttribute('href') ?? '');
    const title = textOf(heading);
    if (!url || !title || seen.has(url)) continue;
    seen.add(url);
    const container = resultContainer(heading);
    // The innermost snippet block, without the duration badge that may lead it.
    const selector = SNIPPET_SELECTORS.join(', ');
    const snippetElement = [...container.querySelectorAll(selector)].find((element) => element.querySelector(selector) === null);
    const snippet = textOf(snippetElement).replace(/^(\d{1,2}:)?\d{1,2}:\d{2}\s*/, '');
    const result: EngineResult = { url, title, snippet };
    const thumbnail = [...container.querySelectorAll('img')].map((image) => absoluteHttpUrl(image.getAttribute('src'))).find(Boolean);
    if (thumbnail) result.thumbnail = thumbnail;
    // The duration badge: a clock time outside the title and snippet.
    const badges = [...container.querySelectorAll('span, div')].filter((element) => element.children.length === 0).map((element) => textOf(element));
    const duration = badges.map((text) => (/^(\d{1,2}:)?\d{1,2}:\d{2}$/.test(text) ? durationInText(text) : undefined)).find(Boolean);
    if (duration) result.extra = { duration };
    results.push(result);
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params: Record<string, string | number | undefined> = { q: query.query, tbm: 'vid' };
    if (query.page > 1) params.start = (query.page - 1) * PAGE_SIZE;
    if (query.timeRange) params.tbs = TIME_RANGE[query.timeRange];
    params.safe = SAFE_SEARCH[query.safeSearch];
    if (query.language !== 'all') {
      params.hl = query.language;
      params.lr = `lang_${query.language}`;
    }
    params.gl = query.region?.split('-')[1]?.toLowerCase();
    params.ie = 'utf8';
    params.oe = 'utf8';
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', params) };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('google_videos answered with an empty page');
    if (/\/sorry\//.test(response.url)) throw new EngineCaptchaError('google redirected to its /sorry/ CAPTCHA page');
    const results = parseResults(response.body);
    if (results.length === 0 && isBlockPage(response.body)) throw new EngineCaptchaError('google_videos answered with a reCAPTCHA page');
    return { results };
  },
});
