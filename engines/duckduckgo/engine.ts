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
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl, formBody } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { parseJsonBody } from '../_lib/json-body.js';
import { DUCKDUCKGO_SAFE_SEARCH, duckduckgoRegion, isDuckduckgoBlockPage } from '../_duckduckgo/duckduckgo.js';

const AUTOCOMPLETE_ORIGIN = 'https://duckduckgo.com';

const TIME_RANGE: Record<TimeRange, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };
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
  if (url.hostname.endsWith('duckduckgo.com') && url.pathname === '/l/')
    return absoluteHttpUrl(url.searchParams.get('uddg'));
  return absolute;
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
    fields.kp = DUCKDUCKGO_SAFE_SEARCH[query.safeSearch];
    return {
      method: 'POST',
      url: endpointUrl(settings.baseUrl, '/html/'),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `${settings.baseUrl.replace(/\/+$/, '')}/`,
      },
      body: formBody(fields),
    };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('duckduckgo answered with an empty page');
    const results = parseResults(response.body);
    if (results.length === 0 && isDuckduckgoBlockPage(response.body))
      throw new EngineCaptchaError('duckduckgo answered with its bot check (anomaly) page');
    return { results };
  },

  autocomplete: {
    buildRequest(text, { settings, manifest, language }) {
      // The suggestions live on duckduckgo.com, not on the html. host; an overridden baseUrl serves both.
      const base =
        settings.baseUrl.replace(/\/+$/, '') === manifest.baseUrl.replace(/\/+$/, '')
          ? AUTOCOMPLETE_ORIGIN
          : settings.baseUrl;
      return {
        method: 'GET',
        url: endpointUrl(base, '/ac/', { q: text, type: 'list', kl: duckduckgoRegion(language) }),
      };
    },
    parseResponse(response) {
      const data = parseJsonBody(response.body, 'duckduckgo autocomplete');
      // type=list answers ["query", ["suggestion", ...]]; the older form is [{ phrase }].
      if (Array.isArray(data) && Array.isArray(data[1]))
        return data[1].filter((s): s is string => typeof s === 'string');
      if (Array.isArray(data)) {
        return data
          .map((entry) => (entry && typeof entry === 'object' ? (entry as { phrase?: unknown }).phrase : undefined))
          .filter((s): s is string => typeof s === 'string');
      }
      return [];
    },
  },
});
