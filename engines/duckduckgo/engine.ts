/**
 * DuckDuckGo through its no-JavaScript endpoint (html.duckduckgo.com/html/),
 * posted as the page's own form does. Later pages resend the form fields of
 * the "Next" button (s, dc, v, o, api, vqd); vqd may stay empty there.
 */
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  type EngineResult,
  type HttpRequestSpec,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl, formBody } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { parseJsonBody } from '../_lib/json-body.js';

const AUTOCOMPLETE_ORIGIN = 'https://duckduckgo.com';

const TIME_RANGE: Record<TimeRange, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };
/** DuckDuckGo's kp: 1 strict, -1 moderate, -2 off. */
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: '-2', 1: '-1', 2: '1' };
/** Region (kl) for a bare language; "wt-wt" is DuckDuckGo's "no region". */
const REGION_BY_LANGUAGE: Record<string, string> = {
  en: 'us-en', de: 'de-de', fr: 'fr-fr', es: 'es-es', it: 'it-it', nl: 'nl-nl', pt: 'br-pt', ru: 'ru-ru', pl: 'pl-pl',
  sv: 'se-sv', da: 'dk-da', fi: 'fi-fi', no: 'no-no', cs: 'cz-cs', el: 'gr-el', hu: 'hu-hu', ro: 'ro-ro', tr: 'tr-tr',
  uk: 'ua-uk', ja: 'jp-jp', ko: 'kr-kr', zh: 'cn-zh', ar: 'xa-ar', he: 'il-he', id: 'id-id', vi: 'vn-vi', th: 'th-th',
};

/** "en-US" → "us-en"; otherwise the language's default region. */
export function duckduckgoRegion(language: string, region?: string): string {
  const match = region ? /^([a-z]{2})-([a-z]{2})$/i.exec(region) : null;
  if (match) return `${match[2]!.toLowerCase()}-${match[1]!.toLowerCase()}`;
  return REGION_BY_LANGUAGE[language] ?? 'wt-wt';
}

/** Offsets of DuckDuckGo's "Next" form: page 2 starts at 20, later pages advance by 50. */
export function pageOffset(page: number): number {
  if (page <= 1) return 0;
  return page === 2 ? 20 : 20 + (page - 2) * 50;
}

/** Result links may go through DuckDuckGo's redirect //duckduckgo.com/l/?uddg=<target>. */
export function unwrapRedirect(href: string): string | undefined {
  const absolute = absoluteHttpUrl(href, 'https://duckduckgo.com/');
  if (!absolute) return undefined;
  const url = new URL(absolute);
  if (url.hostname.endsWith('duckduckgo.com') && url.pathname === '/l/') return absoluteHttpUrl(url.searchParams.get('uddg'));
  return absolute;
}

function isBlockPage(html: string): boolean {
  return /anomaly-modal|anomaly\.js|bots use DuckDuckGo too|captcha|unusual traffic/i.test(html);
}

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('.result')) {
    if (item.classList.contains('result--ad')) continue;
    const link = item.querySelector('a.result__a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? '');
    const title = textOf(link);
    // Ads that slip through point at DuckDuckGo's own click tracker.
    if (!url || !title || new URL(url).hostname.endsWith('duckduckgo.com')) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('.result__snippet')) });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const fields: Record<string, string | number> = { q: query.query, b: '' };
    if (query.page > 1) {
      const offset = pageOffset(query.page);
      Object.assign(fields, { s: offset, dc: offset + 1, nextParams: '', v: 'l', o: 'json', api: 'd.js', vqd: '' });
    }
    fields.kl = duckduckgoRegion(query.language, query.region);
    fields.df = query.timeRange ? TIME_RANGE[query.timeRange] : '';
    fields.kp = SAFE_SEARCH[query.safeSearch];
    return {
      method: 'POST',
      url: endpointUrl(settings.baseUrl, '/html/'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${settings.baseUrl.replace(/\/+$/, '')}/` },
      body: formBody(fields),
    };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('duckduckgo answered with an empty page');
    const results = parseResults(response.body);
    if (results.length === 0 && isBlockPage(response.body)) throw new EngineCaptchaError('duckduckgo answered with its bot check (anomaly) page');
    return { results };
  },

  autocomplete: {
    buildRequest(text, { settings, manifest, language }) {
      // The suggestions live on duckduckgo.com, not on the html. host; an overridden baseUrl serves both.
      const base = settings.baseUrl.replace(/\/+$/, '') === manifest.baseUrl.replace(/\/+$/, '') ? AUTOCOMPLETE_ORIGIN : settings.baseUrl;
      return { method: 'GET', url: endpointUrl(base, '/ac/', { q: text, type: 'list', kl: duckduckgoRegion(language) }) };
    },
    parseResponse(response) {
      const data = parseJsonBody(response.body, 'duckduckgo autocomplete');
      // type=list answers ["query", ["suggestion", ...]]; the older form is [{ phrase }].
      if (Array.isArray(data) && Array.isArray(data[1])) return data[1].filter((s): s is string => typeof s === 'string');
      if (Array.isArray(data)) {
        return data
          .map((entry) => (entry && typeof entry === 'object' ? (entry as { phrase?: unknown }).phrase : undefined))
          .filter((s): s is string => typeof s === 'string');
      }
      return [];
    },
  },
});
