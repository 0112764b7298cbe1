/**
 * DuckDuckGo News (duckduckgo.com/news.js), in two steps: news.js needs the
 * per-query vqd token found in the duckduckgo.com page for the query, so the
 * first request fetches that page and the second the JSON. Which step an
 * answer belongs to is read from the body (JSON or HTML), so a recorded
 * news.js answer also parses directly.
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

const PAGE_SIZE = 30;
const TIME_RANGE: Record<TimeRange, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };

interface NewsParams {
  q: string;
  l: string;
  df: string | undefined;
  p: string;
  s: number;
}

function newsParams(query: EngineQuery): NewsParams {
  return {
    q: query.query,
    l: duckduckgoRegion(query.language, query.region),
    df: query.timeRange ? TIME_RANGE[query.timeRange] : undefined,
    p: DUCKDUCKGO_SAFE_SEARCH[query.safeSearch],
    s: (query.page - 1) * PAGE_SIZE,
  };
}

function toResult(item: unknown): EngineResult | undefined {
  const record = asRecord(item);
  const url = absoluteHttpUrl(asString(record?.url));
  const title = stripMarkup(asString(record?.title) ?? '');
  if (!record || !url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(record.excerpt) ?? '') };
  if (typeof record.date === 'number' && record.date > 0)
    result.publishedDate = new Date(record.date * 1000).toISOString();
  const image = absoluteHttpUrl(asString(record.image));
  if (image) result.thumbnail = image;
  const source = asString(record.source);
  if (source) result.extra = { source };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = newsParams(query);
    // The token page takes the same settings (kl region, df, kp, s) so the whole search is visible in its URL.
    const url = endpointUrl(settings.baseUrl, '/', {
      q: params.q,
      ia: 'news',
      iar: 'news',
      kl: params.l,
      df: params.df,
      kp: params.p,
      s: params.s || undefined,
    });
    return { method: 'GET', url, meta: { news: { ...params } } };
  },

  parseResponse(response, { query, settings }) {
    const body = response.body.trim();
    if (body.startsWith('<')) {
      const params = (asRecord(response.request.meta?.news) as NewsParams | undefined) ?? newsParams(query);
      return { next: requestAfterTokenPage(body, settings.baseUrl, '/news.js', { ...params, o: 'json', noamp: 1 }) };
    }
    const data = asRecord(parseJsonBody(body, 'duckduckgo_news'));
    if (!data) throw new EngineParseError('duckduckgo_news answered with JSON that is not an object');
    return {
      results: asArray(data.results)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
