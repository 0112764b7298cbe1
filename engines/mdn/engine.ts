/** MDN Web Docs site search API (JSON). */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';

const SITE = 'https://developer.mozilla.org';
/** MDN's translated locales, keyed by ISO 639-1 code. */
const LOCALES: Record<string, string> = {
  en: 'en-US',
  de: 'de',
  es: 'es',
  fr: 'fr',
  ja: 'ja',
  ko: 'ko',
  pt: 'pt-BR',
  ru: 'ru',
  zh: 'zh-CN',
};

interface MdnDocument {
  mdn_url?: string;
  title?: string;
  summary?: string;
  locale?: string;
  slug?: string;
  score?: number;
  popularity?: number;
}

function documentToResult(document: MdnDocument): EngineResult | undefined {
  if (!document.mdn_url || !document.title) return undefined;
  return {
    url: new URL(document.mdn_url, SITE).href,
    title: stripMarkup(document.title),
    snippet: stripMarkup(document.summary ?? ''),
    extra: { locale: document.locale, slug: document.slug },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const language = ctx.query.language.split('-')[0] ?? 'en';
    const params = new URLSearchParams({
      q: ctx.query.query,
      locale: LOCALES[language] ?? 'en-US',
      page: String(ctx.query.page),
    });
    return { method: 'GET', url: `${base}/api/v1/search?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { documents?: MdnDocument[] };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('mdn did not answer JSON');
    }
    return { results: (body.documents ?? []).map(documentToResult).filter((result) => result !== undefined) };
  },
});
