/**
 * DuckDuckGo image search (duckduckgo.com/i.js), in two steps: i.js needs the
 * per-query vqd token found in the duckduckgo.com page for the query, so the
 * first request fetches that page and the second the JSON. An answer's step
 * is read from its body (HTML page or JSON).
 */
import {
  defineEngine,
  EngineParseError,
  stripMarkup,
  type EngineQuery,
  type EngineResult,
  type HttpRequestSpec,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { DUCKDUCKGO_SAFE_SEARCH, duckduckgoRegion, requestAfterTokenPage } from '../_duckduckgo/duckduckgo.js';

const PAGE_SIZE = 100;
const TIME_RANGE: Record<TimeRange, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };

interface ImageParams {
  q: string;
  l: string;
  f: string;
  p: string;
  s: number | undefined;
}

function imageParams(query: EngineQuery): ImageParams {
  return {
    q: query.query,
    l: duckduckgoRegion(query.language, query.region),
    // f is the filter list time,size,color,type,layout,license.
    f: query.timeRange ? `time:${TIME_RANGE[query.timeRange]},,,,,` : ',,,,,',
    p: DUCKDUCKGO_SAFE_SEARCH[query.safeSearch],
    s: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
  };
}

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

function toResult(item: unknown): EngineResult | undefined {
  const record = asRecord(item);
  const imageUrl = absoluteHttpUrl(asString(record?.image));
  const page = absoluteHttpUrl(asString(record?.url)) ?? imageUrl;
  if (!record || !imageUrl || !page) return undefined;
  const result: EngineResult = {
    url: page,
    title: stripMarkup(asString(record.title) ?? '') || new URL(page).hostname,
    snippet: '',
    imageUrl,
    thumbnail: absoluteHttpUrl(asString(record.thumbnail)) ?? imageUrl,
    sourceUrl: page,
  };
  const width = dimension(record.width);
  const height = dimension(record.height);
  if (width && height) Object.assign(result, { width, height });
  const source = asString(record.source);
  if (source) result.extra = { source };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = imageParams(query);
    // The token page takes the same settings, so the whole search is visible in its URL.
    const url = endpointUrl(settings.baseUrl, '/', {
      q: params.q,
      iax: 'images',
      ia: 'images',
      kl: params.l,
      kp: params.p,
      f: params.f,
      s: params.s,
    });
    return { method: 'GET', url, meta: { images: { ...params } } };
  },

  parseResponse(response, { query, settings }) {
    const body = response.body.trim();
    if (body.startsWith('<')) {
      const params = (asRecord(response.request.meta?.images) as ImageParams | undefined) ?? imageParams(query);
      return {
        next: requestAfterTokenPage(
          body,
          settings.baseUrl,
          '/i.js',
          { ...params, o: 'json' },
          { accept: 'application/json' },
        ),
      };
    }
    const data = asRecord(parseJsonBody(body, 'duckduckgo_images'));
    if (!data || !Array.isArray(data.results)) throw new EngineParseError('duckduckgo_images answered without results');
    return {
      results: asArray(data.results)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
