/**
 * Qwant through its JSON API (api.qwant.com/v3/search/web). Results sit in
 * data.result.items.mainline, a list of typed groups; only "web" groups are
 * results (the others are ads, videos, news carousels…).
 */
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
  type HttpRequestSpec,
  type EngineQuery,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
/** Qwant wants a full locale; a bare language gets its main country. */
const LOCALE_BY_LANGUAGE: Record<string, string> = {
  en: 'en_US',
  de: 'de_DE',
  fr: 'fr_FR',
  es: 'es_ES',
  it: 'it_IT',
  nl: 'nl_NL',
  pt: 'pt_PT',
  pl: 'pl_PL',
  sv: 'sv_SE',
  da: 'da_DK',
  fi: 'fi_FI',
  nb: 'nb_NO',
  cs: 'cs_CZ',
  el: 'el_GR',
  hu: 'hu_HU',
  ro: 'ro_RO',
  ko: 'ko_KR',
  ja: 'ja_JP',
  zh: 'zh_CN',
};
/** Qwant's error code for "too many requests". */
const RATE_LIMITED = 24;

export function qwantLocale(query: Pick<EngineQuery, 'language' | 'region'>): string {
  const match = query.region ? /^([a-z]{2})-([a-z]{2})$/i.exec(query.region) : null;
  if (match) return `${match[1]!.toLowerCase()}_${match[2]!.toUpperCase()}`;
  return LOCALE_BY_LANGUAGE[query.language] ?? 'en_US';
}

function raiseError(data: Record<string, unknown>): void {
  const payload = asRecord(data.data) ?? {};
  if (asString(asRecord(payload.error_data)?.captchaUrl)) throw new EngineCaptchaError('qwant asks for a CAPTCHA');
  if (Number(payload.error_code) === RATE_LIMITED)
    throw new EngineRateLimitedError('qwant: too many requests (error 24)');
  throw new EngineParseError(`qwant answered with error ${String(payload.error_code ?? 'unknown')}`);
}

function toResult(item: unknown): EngineResult | undefined {
  const record = asRecord(item);
  const url = absoluteHttpUrl(asString(record?.url));
  const title = stripMarkup(asString(record?.title) ?? '');
  if (!record || !url || !title) return undefined;
  return { url, title, snippet: stripMarkup(asString(record.desc) ?? '') };
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      q: query.query,
      count: PAGE_SIZE,
      offset: (query.page - 1) * PAGE_SIZE,
      locale: qwantLocale(query),
      safesearch: query.safeSearch,
      device: 'desktop',
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/v3/search/web', params) };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'qwant'));
    if (!data) throw new EngineParseError('qwant answered with JSON that is not an object');
    if (data.status !== 'success') raiseError(data);
    const mainline = asArray(asRecord(asRecord(asRecord(data.data)?.result)?.items)?.mainline);
    const results: EngineResult[] = [];
    for (const group of mainline.map(asRecord)) {
      if (group?.type !== 'web') continue;
      for (const result of asArray(group.items).map(toResult)) if (result) results.push(result);
    }
    return { results };
  },
});
