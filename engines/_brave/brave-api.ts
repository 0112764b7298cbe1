/**
 * What the Brave Search API's news, images and videos endpoints share:
 * the token header, the common query parameters and the error answers.
 */
import {
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineQuery,
  type EngineResult,
  type EngineSettings,
  type HttpRequestSpec,
  type SafeSearch,
  type TimeRange,
} from '../../core/engine.js';
import { isoDate } from '../_lib/dates.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const BRAVE_FRESHNESS: Record<TimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
const LISTING_SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };
/** offset is a page index; the API accepts 0–9. */
const MAX_OFFSET = 9;

export function braveRequest(
  settings: EngineSettings,
  path: string,
  params: Record<string, string | number | undefined>,
): HttpRequestSpec {
  return {
    method: 'GET',
    url: endpointUrl(settings.baseUrl, path, params),
    headers: { accept: 'application/json', 'x-subscription-token': settings.apiKey ?? '' },
  };
}

function braveOffset(query: EngineQuery): number | undefined {
  return query.page > 1 ? Math.min(query.page - 1, MAX_OFFSET) : undefined;
}

export function braveLanguage(query: EngineQuery): string | undefined {
  return query.language === 'all' ? undefined : query.language;
}

/** The results array of an answer; ErrorResponse bodies become typed errors. */
export function braveResults(body: string, engine: string): Record<string, unknown>[] {
  const data = asRecord(parseJsonBody(body, engine));
  if (!data) throw new EngineParseError(`${engine} answered with JSON that is not an object`);
  if (data.type === 'ErrorResponse') {
    const error = asRecord(data.error) ?? {};
    const status = Number(error.status);
    const detail = asString(error.detail) ?? asString(error.code) ?? 'unknown error';
    if (status === 429) throw new EngineRateLimitedError(`${engine}: ${detail}`);
    if (status === 401 || status === 403 || status === 422) throw new EngineAccessDeniedError(`${engine}: ${detail}`);
    throw new EngineParseError(`${engine} answered with an error: ${detail}`);
  }
  return asArray(data.results)
    .map((item) => asRecord(item))
    .filter((item): item is Record<string, unknown> => item !== undefined);
}

/** page_age comes without a zone ("2024-12-31T17:09:03"); Brave's timestamps are UTC. */
export function braveDate(value: unknown): string | undefined {
  const text = asString(value);
  if (!text) return undefined;
  return isoDate(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

/** The query parameters the news and videos endpoints take alike. */
export function braveListingParams(query: EngineQuery, pageSize: number): Record<string, string | number | undefined> {
  return {
    q: query.query,
    count: pageSize,
    offset: braveOffset(query),
    freshness: query.timeRange ? BRAVE_FRESHNESS[query.timeRange] : undefined,
    safesearch: LISTING_SAFE_SEARCH[query.safeSearch],
    search_lang: braveLanguage(query),
  };
}

/** What a news or video item says alike: its page, title, description and age; undefined without a page or title. */
export function braveListedResult(item: Record<string, unknown>): EngineResult | undefined {
  const url = absoluteHttpUrl(asString(item.url));
  const title = stripMarkup(asString(item.title) ?? '');
  if (!url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(item.description) ?? '') };
  const published = braveDate(item.page_age);
  if (published) result.publishedDate = published;
  return result;
}
