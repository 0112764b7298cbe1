/** Google Scholar result page (HTML). Scholar blocks scrapers quickly, so CAPTCHA pages are detected first. */
import { parseHTML } from 'linkedom';
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResponse,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
/** Markers of Scholar's and Google's robot checks ("/sorry/" redirect, reCAPTCHA form). */
const CAPTCHA_MARKERS = [
  /id="gs_captcha/i,
  /class="g-recaptcha"/i,
  /please show you're not a robot/i,
  /unusual traffic from your computer/i,
];

/** linkedom's elements, typed as the DOM lib's Element. */
type HtmlElement = Element;

function assertNotBlocked(response: EngineResponse): void {
  if (
    /\/sorry\/|google\.[a-z.]+\/sorry/.test(response.url) ||
    CAPTCHA_MARKERS.some((marker) => marker.test(response.body))
  ) {
    throw new EngineCaptchaError('google scholar answered with a CAPTCHA page');
  }
  if (response.status === 429) throw new EngineRateLimitedError();
  if (response.status >= 400) throw new EngineParseError(`google scholar answered HTTP ${response.status}`);
}

/** Inline highlight tags go without a space ("<b>hello</b>," → "hello,"); other tags become spaces. */
const INLINE_TAG = /<\/?(?:b|i|em|strong|span|mark)\b[^>]*>/gi;

function text(element: HtmlElement | null | undefined): string {
  return stripMarkup((element?.innerHTML ?? '').replace(INLINE_TAG, ''));
}

function absolute(href: string | null | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function entryToResult(entry: HtmlElement, pageUrl: string): EngineResult | undefined {
  const heading = entry.querySelector('h3.gs_rt');
  const link = heading?.querySelector('a');
  const url = absolute(link?.getAttribute('href'), pageUrl);
  if (!heading || !link || !url) return undefined; // [CITATION] entries have no link
  // "[PDF]"/"[HTML]" type badges sit in the heading; they are not part of the title.
  for (const badge of heading.querySelectorAll('.gs_ctc, .gs_ctu, .gs_ct1, .gs_ct2, .gs_ctg2')) badge.remove();
  const byline = text(entry.querySelector('.gs_a'));
  const [authorPart = '', venuePart = ''] = byline.split(' - ');
  const citedBy = [...entry.querySelectorAll('.gs_fl a')].find((anchor) =>
    /[?&]cites=/.test(anchor.getAttribute('href') ?? ''),
  );
  const year = /\b(1[5-9]\d\d|20\d\d)\b/.exec(venuePart)?.[1];
  return {
    url,
    title: text(link),
    snippet: text(entry.querySelector('.gs_rs')),
    publishedDate: year,
    authors: authorPart
      ? authorPart
          .split(',')
          .map((name) => name.replace('…', '').trim())
          .filter(Boolean)
      : undefined,
    extra: {
      byline,
      citedBy: citedBy ? Number(/\d+/.exec(citedBy.textContent ?? '')?.[0] ?? 0) : undefined,
      pdf: absolute(entry.querySelector('.gs_ggs a')?.getAttribute('href'), pageUrl),
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      q: ctx.query.query,
      hl: ctx.query.language === 'all' ? 'en' : ctx.query.language,
    });
    if (ctx.query.page > 1) params.set('start', String((ctx.query.page - 1) * PAGE_SIZE));
    return { method: 'GET', url: `${base}/scholar?${params}` };
  },

  parseResponse(response) {
    assertNotBlocked(response);
    const { document } = parseHTML(response.body);
    const entries = [...document.querySelectorAll('div.gs_r')].filter((entry) => entry.querySelector('.gs_ri'));
    const pageUrl = response.url || response.request.url;
    return { results: entries.map((entry) => entryToResult(entry, pageUrl)).filter((result) => result !== undefined) };
  },
});
