/**
 * What the Google-family engines (web, images, videos, news, scholar) share,
 * because Google serves them the same markup and the same answers: the
 * request parameters of its /search page, the /url?q= link wrapper, the
 * heading-per-result layout, and the block page (/sorry/ redirect, reCAPTCHA).
 */
import { EngineCaptchaError, type EngineQuery, type SafeSearch, type TimeRange } from '../../core/engine.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const GOOGLE = 'https://www.google.com';
export const GOOGLE_TIME_RANGE: Record<TimeRange, string> = {
  day: 'qdr:d',
  week: 'qdr:w',
  month: 'qdr:m',
  year: 'qdr:y',
};
/** Google's web tabs know only on (active) and off; moderate counts as on. */
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'active', 2: 'active' };
/** A result's title: an h3 on the no-JS and desktop pages, role=heading on the mobile page. */
const RESULT_HEADING = 'h3, [role="heading"]';
const BLOCK_MARKERS = /id="captcha-form"|g-recaptcha|unusual traffic|captcha/i;

/** The /search parameters of a web, image or video tab (`tbm` names the tab; none is web). */
export function googleSearchParams(
  query: EngineQuery,
  pageSize: number,
  tab?: string,
): Record<string, string | number | undefined> {
  const params: Record<string, string | number | undefined> = { q: query.query };
  if (tab) params.tbm = tab;
  if (query.page > 1) params.start = (query.page - 1) * pageSize;
  if (query.timeRange) params.tbs = GOOGLE_TIME_RANGE[query.timeRange];
  params.safe = SAFE_SEARCH[query.safeSearch];
  if (query.language !== 'all') {
    params.hl = query.language;
    params.lr = `lang_${query.language}`;
  }
  params.gl = query.region?.split('-')[1]?.toLowerCase();
  params.ie = 'utf8';
  params.oe = 'utf8';
  return params;
}

/** /url?q=<target>&sa=U... → the target; relative links to Google's own pages are not results. */
export function unwrapGoogleLink(href: string): string | undefined {
  if (href.startsWith('/url?')) {
    const params = new URL(href, GOOGLE).searchParams;
    return absoluteHttpUrl(params.get('q') ?? params.get('url'));
  }
  return absoluteHttpUrl(href);
}

/** The largest ancestor of an element that holds no other element matching `selector` (a result's block). */
function blockOf(element: Element, selector: string): Element {
  let block = element;
  while (block.parentElement && block.parentElement.querySelectorAll(selector).length <= 1) block = block.parentElement;
  return block;
}

/** A result of the web and video tabs: a link holding a heading, in its block. */
export interface HeadedResult {
  url: string;
  title: string;
  /** The result's block: the largest ancestor of its heading that holds no other result's. */
  container: Element;
}

/** The results of a web or video tab page, in order, each link once. */
export function headedResults(html: string): HeadedResult[] {
  const document = parseHtmlDocument(html);
  const results: HeadedResult[] = [];
  const seen = new Set<string>();
  for (const heading of document.querySelectorAll(RESULT_HEADING)) {
    const link = heading.closest('a') ?? heading.querySelector('a');
    const url = unwrapGoogleLink(link?.getAttribute('href') ?? '');
    const title = textOf(heading);
    if (!url || !title || seen.has(url)) continue;
    seen.add(url);
    results.push({ url, title, container: blockOf(heading, RESULT_HEADING) });
  }
  return results;
}

/** Throws the CAPTCHA error when Google redirected to /sorry/, or answered nothing but a robot check. */
export function assertNotBlocked(engine: string, response: { url: string; body: string }, resultCount: number): void {
  if (/\/sorry\//.test(response.url)) throw new EngineCaptchaError('google redirected to its /sorry/ CAPTCHA page');
  if (resultCount === 0 && BLOCK_MARKERS.test(response.body))
    throw new EngineCaptchaError(`${engine} answered with a reCAPTCHA page`);
}
