/**
 * Google web results from its HTML page. One parser serves the no-JS page
 * (gbv=1, links wrapped in /url?q=), the desktop page and the mobile page:
 * a result is a link holding a heading (h3, or role=heading on mobile).
 */
import { defineEngine, EngineCaptchaError, EngineParseError, type EngineResult, type SafeSearch, type TimeRange } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
const SUGGEST_ORIGIN = 'https://suggestqueries.google.com';
const TIME_RANGE: Record<TimeRange, string> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };
/** Google knows only on (active) and off; moderate counts as on. */
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'active', 2: 'active' };
/** Snippet containers across the no-JS (s3v9rd), desktop (VwiC3b, data-sncf) and older (st) layouts. */
const SNIPPET_SELECTORS = ['.VwiC3b', '[data-sncf]', '.s3v9rd', '.st', '.yDYNvb', '.lEBKkf'];
const HEADING = 'h3, [role="heading"]';

/** /url?q=<target>&sa=U... → the target; relative links to Google's own pages are not results. */
export function unwrapGoogleLink(href: string): string | undefined {
  if (href.startsWith('/url?')) {
    const params = new URL(href, 'https://www.google.com').searchParams;
    return absoluteHttpUrl(params.get('q') ?? params.get('url'));
  }
  return absoluteHttpUrl(href);
}

function isBlockPage(html: string, finalUrl: string): boolean {
  return /\/sorry\//.test(finalUrl) || /id="captcha-form"|g-recaptcha|unusual traffic from your computer|captcha/i.test(html);
}

/** The largest ancestor of a result heading that holds no other result heading. */
function resultContainer(heading: Element): Element {
  let container = heading;
  while (container.parentElement && container.parentElement.querySelectorAll(HEADING).length <= 1) container = container.parentElement;
  return container;
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
    const snippetElement = SNIPPET_SELECTORS.map((selector) => container.querySelector(selector)).find((element) => element !== null);
    results.push({ url, title, snippet: textOf(snippetElement) });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params: Record<string, string | number | undefined> = { q: query.query };
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
    if (response.body.trim() === '') throw new EngineParseError('google answered with an empty page');
    if (/\/sorry\//.test(response.url)) throw new EngineCaptchaError('google redirected to its /sorry/ CAPTCHA page');
    const results = parseResults(response.body);
    if (results.length === 0 && isBlockPage(response.body, response.url)) throw new EngineCaptchaError('google answered with a reCAPTCHA page');
    return { results };
  },

  autocomplete: {
    buildRequest(text, { settings, manifest, language }) {
      // Suggestions are served from suggestqueries.google.com; an overridden baseUrl serves both.
      const base = settings.baseUrl.replace(/\/+$/, '') === manifest.baseUrl.replace(/\/+$/, '') ? SUGGEST_ORIGIN : settings.baseUrl;
      return { method: 'GET', url: endpointUrl(base, '/complete/search', { client: 'firefox', q: text, hl: language === 'all' ? undefined : language }) };
    },
    parseResponse(response) {
      const data = parseJsonBody(response.body, 'google autocomplete');
      // client=firefox answers ["query", ["suggestion", ...]].
      if (Array.isArray(data) && Array.isArray(data[1])) return data[1].filter((s): s is string => typeof s === 'string');
      throw new EngineParseError('google autocomplete answered in an unknown format');
    },
  },
});
