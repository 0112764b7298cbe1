/** PyPI project search: pypi.org has no search API, so the HTML result page is parsed. */
import { parseHTML } from 'linkedom';
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';

/** linkedom's elements, typed as the DOM lib's Element. */
type HtmlElement = Element;

/** Inline highlight tags go without a space ("<b>hello</b>," → "hello,"); other tags become spaces. */
const INLINE_TAG = /<\/?(?:b|i|em|strong|span|mark)\b[^>]*>/gi;

function text(element: HtmlElement | null | undefined): string {
  return stripMarkup((element?.innerHTML ?? '').replace(INLINE_TAG, ''));
}

function snippetToResult(snippet: HtmlElement, pageUrl: string): EngineResult | undefined {
  const href = snippet.getAttribute('href');
  const name = text(snippet.querySelector('.package-snippet__name'));
  if (!href || !name) return undefined;
  const url = new URL(href, pageUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const version = text(snippet.querySelector('.package-snippet__version'));
  const released = snippet
    .querySelector('.package-snippet__created time, .package-snippet__released time')
    ?.getAttribute('datetime');
  return {
    url: url.href,
    title: name,
    snippet: text(snippet.querySelector('.package-snippet__description')),
    publishedDate: released ?? undefined,
    extra: { version: version || undefined },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({ q: ctx.query.query });
    if (ctx.query.page > 1) params.set('page', String(ctx.query.page));
    return { method: 'GET', url: `${base}/search/?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    // PyPI answers 404 for a page past the last one.
    if (response.status === 404) return { results: [] };
    if (response.status >= 400) throw new EngineParseError(`pypi answered HTTP ${response.status}`);
    const { document } = parseHTML(response.body);
    const pageUrl = response.url || response.request.url;
    const snippets = [...document.querySelectorAll('a.package-snippet')];
    return {
      results: snippets.map((snippet) => snippetToResult(snippet, pageUrl)).filter((result) => result !== undefined),
    };
  },
});
