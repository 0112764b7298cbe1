/**
 * What the DuckDuckGo engines (web, images, news) share, because DuckDuckGo
 * serves them the same conventions: the kl region and kp safe-search codes,
 * its bot check page, and the two-step flow of the images and news
 * endpoints — their JSON needs the per-query vqd token that the
 * duckduckgo.com page for the query carries.
 */
import { EngineCaptchaError, EngineParseError, type HttpRequestSpec, type SafeSearch } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';

/** kp: 1 strict, -1 moderate, -2 off. */
export const DUCKDUCKGO_SAFE_SEARCH: Record<SafeSearch, string> = { 0: '-2', 1: '-1', 2: '1' };

/** Region (kl) for a bare language; "wt-wt" is DuckDuckGo's "no region". */
const REGION_BY_LANGUAGE: Record<string, string> = {
  en: 'us-en',
  de: 'de-de',
  fr: 'fr-fr',
  es: 'es-es',
  it: 'it-it',
  nl: 'nl-nl',
  pt: 'br-pt',
  ru: 'ru-ru',
  pl: 'pl-pl',
  sv: 'se-sv',
  da: 'dk-da',
  fi: 'fi-fi',
  no: 'no-no',
  cs: 'cz-cs',
  el: 'gr-el',
  hu: 'hu-hu',
  ro: 'ro-ro',
  tr: 'tr-tr',
  uk: 'ua-uk',
  ja: 'jp-jp',
  ko: 'kr-kr',
  zh: 'cn-zh',
  ar: 'xa-ar',
  he: 'il-he',
  id: 'id-id',
  vi: 'vn-vi',
  th: 'th-th',
};

/** "en-US" → "us-en"; otherwise the language's default region. */
export function duckduckgoRegion(language: string, region?: string): string {
  const match = region ? /^([a-z]{2})-([a-z]{2})$/i.exec(region) : null;
  if (match) return `${match[2]!.toLowerCase()}-${match[1]!.toLowerCase()}`;
  return REGION_BY_LANGUAGE[language] ?? 'wt-wt';
}

/** The bot check ("Unfortunately, bots use DuckDuckGo too", the anomaly modal) or a CAPTCHA. */
export function isDuckduckgoBlockPage(html: string): boolean {
  return /anomaly-modal|anomaly\.js|bots use DuckDuckGo too|captcha|unusual traffic|are you a robot/i.test(html);
}

/** The vqd token in a query page (vqd="4-1234…" or vqd='…'). */
export function extractVqd(html: string): string | undefined {
  return /vqd=["']?(\d-[\d-]+)/.exec(html)?.[1];
}

/**
 * The second step of the images and news endpoints: from the query page (HTML), the request for
 * `path` with `params` and the page's vqd token; the bot check raises a CAPTCHA error.
 */
export function requestAfterTokenPage(
  html: string,
  baseUrl: string,
  path: string,
  params: Record<string, string | number | undefined>,
  headers: Record<string, string> = {},
): HttpRequestSpec {
  const vqd = extractVqd(html);
  if (!vqd) {
    if (isDuckduckgoBlockPage(html)) throw new EngineCaptchaError('duckduckgo answered with its bot check page');
    throw new EngineParseError('duckduckgo page without a vqd token');
  }
  return {
    method: 'GET',
    url: endpointUrl(baseUrl, path, { ...params, vqd }),
    headers: { referer: `${baseUrl.replace(/\/+$/, '')}/`, ...headers },
  };
}
