/**
 * Bing video search through the HTML fragment its video page loads
 * (www.bing.com/videos/asyncv2). Each tile holds a div.vrhdata whose vrhm
 * attribute is JSON: vt (title), murl (the video page), du (duration).
 */
import {
  defineEngine,
  EngineCaptchaError,
  EngineParseError,
  stripMarkup,
  type EngineResult,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';

const PAGE_SIZE = 35;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };
/** Bing's video age filter counts minutes. */
const TIME_RANGE: Record<TimeRange, number> = { day: 1440, week: 10080, month: 43200, year: 525600 };

function tileData(element: Element): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(element.getAttribute('vrhm') ?? ''));
  } catch {
    return undefined;
  }
}

function thumbnailOf(tile: Element | null): string | undefined {
  for (const image of tile?.querySelectorAll('.mc_vtvc_th img, img') ?? []) {
    const url = absoluteHttpUrl(image.getAttribute('src')) ?? absoluteHttpUrl(image.getAttribute('data-src'));
    if (url) return url;
  }
  return undefined;
}

function toResult(element: Element): EngineResult | undefined {
  const data = tileData(element);
  if (!data) return undefined;
  const url = absoluteHttpUrl(asString(data.murl));
  const tile = element.closest('.mc_vtvc') ?? element.closest('.dg_u') ?? element.parentElement;
  const title = stripMarkup(asString(data.vt) ?? '') || textOf(tile?.querySelector('.mc_vtvc_title'));
  if (!url || !title) return undefined;
  // The meta block: views, age, then source and channel, e.g. "1.2M views · 2 years ago · YouTube · Channel".
  const meta = [...(tile?.querySelectorAll('.mc_vtvc_meta_block span') ?? [])]
    .map((span) => textOf(span))
    .filter(Boolean);
  const result: EngineResult = { url, title, snippet: meta.join(' · ') };
  const thumbnail = thumbnailOf(tile);
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  const duration = asString(data.du) || textOf(tile?.querySelector('.mc_bc'));
  if (duration) extra.duration = duration;
  const source = asString(data.sourceDomain) ?? asString(data.src);
  if (source) extra.source = source;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/videos/asyncv2', {
        q: query.query,
        async: 'content',
        first: (query.page - 1) * PAGE_SIZE + 1,
        count: PAGE_SIZE,
        qft: query.timeRange ? `+filterui:videoage-lt${TIME_RANGE[query.timeRange]}` : undefined,
        adlt: SAFE_SEARCH[query.safeSearch],
        setlang: query.language === 'all' ? undefined : query.language,
        cc: query.region?.split('-')[1]?.toUpperCase(),
      }),
    };
  },

  parseResponse(response) {
    const html = response.body;
    if (html.trim() === '') throw new EngineParseError('bing_videos answered with an empty page');
    const document = parseHtmlDocument(html);
    const seen = new Set<string>();
    const results: EngineResult[] = [];
    for (const element of document.querySelectorAll('[vrhm]')) {
      const result = toResult(element);
      if (!result || seen.has(result.url)) continue;
      seen.add(result.url);
      results.push(result);
    }
    if (results.length === 0 && /captcha|unusual traffic|\/challenge\//i.test(html))
      throw new EngineCaptchaError('bing_videos answered with a CAPTCHA challenge');
    return { results };
  },
});
