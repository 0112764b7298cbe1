/**
 * Bing image search through the HTML fragment its result page loads while
 * scrolling (www.bing.com/images/async). Every tile is an a.iusc whose `m`
 * attribute holds JSON: murl (the image), turl (Bing's thumbnail), purl (the
 * page it is on) and t (the title).
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
/** Bing's age filter counts minutes. */
const TIME_RANGE: Record<TimeRange, number> = { day: 1440, week: 10080, month: 43200, year: 525600 };

function tileData(anchor: Element): Record<string, unknown> | undefined {
  const raw = anchor.getAttribute('m');
  if (!raw) return undefined;
  try {
    return asRecord(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** "1920 x 1080 · jpeg" → [1920, 1080]. */
function dimensions(text: string): { width: number; height: number } | undefined {
  const match = /(\d{2,5})\s*[x×]\s*(\d{2,5})/.exec(text);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

function toResult(anchor: Element): EngineResult | undefined {
  const data = tileData(anchor);
  if (!data) return undefined;
  const imageUrl = absoluteHttpUrl(asString(data.murl));
  const page = absoluteHttpUrl(asString(data.purl)) ?? imageUrl;
  if (!imageUrl || !page) return undefined;
  const tile = anchor.closest('li') ?? anchor.closest('.iuscp') ?? anchor.parentElement;
  const title = stripMarkup(asString(data.t) ?? '') || textOf(tile?.querySelector('.inflnk')) || new URL(page).hostname;
  const result: EngineResult = {
    url: page,
    title,
    snippet: stripMarkup(asString(data.desc) ?? ''),
    imageUrl,
    thumbnail: absoluteHttpUrl(asString(data.turl)) ?? imageUrl,
    sourceUrl: page,
  };
  const size = dimensions(textOf(tile?.querySelector('.img_info .nowrap') ?? tile?.querySelector('.img_info')));
  if (size) Object.assign(result, size);
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/images/async', {
        q: query.query,
        first: (query.page - 1) * PAGE_SIZE + 1,
        count: PAGE_SIZE,
        async: 'content',
        qft: query.timeRange ? `+filterui:age-lt${TIME_RANGE[query.timeRange]}` : undefined,
        adlt: SAFE_SEARCH[query.safeSearch],
        setlang: query.language === 'all' ? undefined : query.language,
        cc: query.region?.split('-')[1]?.toUpperCase(),
      }),
    };
  },

  parseResponse(response) {
    const html = response.body;
    if (html.trim() === '') throw new EngineParseError('bing_images answered with an empty page');
    const document = parseHtmlDocument(html);
    const seen = new Set<string>();
    const results: EngineResult[] = [];
    for (const anchor of document.querySelectorAll('a.iusc')) {
      const result = toResult(anchor);
      if (!result || seen.has(result.imageUrl!)) continue;
      seen.add(result.imageUrl!);
      results.push(result);
    }
    if (results.length === 0 && /captcha|unusual traffic|\/challenge\//i.test(html))
      throw new EngineCaptchaError('bing_images answered with a CAPTCHA challenge');
    return { results };
  },
});
