/**
 * Brave Search API, web endpoint (api.search.brave.com/res/v1/web/search).
 * Needs a subscription token (engines.brave.apiKey), sent as X-Subscription-Token.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;
/** The API accepts offsets 0–9 (pages of `count` results). */
const MAX_OFFSET = 9;
const FRESHNESS: Record<TimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };

function raiseApiError(data: Record<string, unknown>): void {
  if (data.type !== 'ErrorResponse') return;
  const error = asRecord(data.error) ?? {};
  const status = Number(error.status);
  const detail = asString(error.detail) ?? asString(error.code) ?? 'unknown error';
  if (status === 429) throw new EngineRateLimitedError(`brave: ${detail}`);
  if (status === 401 || status === 403 || status === 422) throw new EngineAccessDeniedError(`brave: ${detail}`);
  throw new EngineParseError(`brave answered with an error: ${detail}`);
}

function toResult(item: unknown): EngineResult | undefined {
  const record = asRecord(item);
  const url = absoluteHttpUrl(asString(record?.url));
  const title = stripMarkup(asString(record?.title) ?? '');
  if (!record || !url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(record.description) ?? '') };
  const pageAge = asString(record.page_age);
  if (pageAge) result.publishedDate = pageAge;
  const thumbnail = absoluteHttpUrl(asString(asRecord(record.thumbnail)?.src));
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  if (asString(record.age)) extra.age = record.age;
  if (asString(record.language)) extra.language = record.language;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params: Record<string, string | number | undefined> = {
      q: query.query,
      count: PAGE_SIZE,
      offset: query.page > 1 ? Math.min(query.page - 1, MAX_OFFSET) : undefined,
      freshness: query.timeRange ? FRESHNESS[query.timeRange] : undefined,
      safesearch: SAFE_SEARCH[query.safeSearch],
      search_lang: query.language === 'all' ? undefined : query.language,
      country: query.region?.split('-')[1]?.toUpperCase(),
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/res/v1/web/search', params),
      headers: { accept: 'application/json', 'x-subscription-token': settings.apiKey ?? '' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'brave'));
    if (!data) throw new EngineParseError('brave answered with JSON that is not an object');
    raiseApiError(data);
    const items = asArray(asRecord(data.web)?.results);
    return { results: items.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },

  autocomplete: {
    // Brave's suggest endpoint (same key): {"type":"suggest","results":[{"query":"…"}]}.
    buildRequest(text, { settings, language }) {
      return {
        method: 'GET',
        url: endpointUrl(settings.baseUrl, '/res/v1/suggest/search', {
          q: text,
          count: 10,
          lang: language === 'all' ? undefined : language,
        }),
        headers: { accept: 'application/json', 'x-subscription-token': settings.apiKey ?? '' },
      };
    },
    parseResponse(response) {
      const data = asRecord(parseJsonBody(response.body, 'brave suggest'));
      if (!data) throw new EngineParseError('brave suggest answered with JSON that is not an object');
      raiseApiError(data);
      return asArray(data.results)
        .map((item) => asString(asRecord(item)?.query))
        .filter((query): query is string => Boolean(query));
    },
  },
});
