/**
 * The Guardian's Open Platform content API (content.guardianapis.com/search).
 * Needs an API key (engines.guardian.apiKey); the free developer tier allows
 * about one call a second and 500 a day.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 10;
const FIELDS = 'trailText,thumbnail,byline';

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  const url = absoluteHttpUrl(asString(item?.webUrl));
  const title = stripMarkup(asString(item?.webTitle) ?? '');
  if (!item || !url || !title) return undefined;
  const fields = asRecord(item.fields);
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(fields?.trailText) ?? '') };
  const published = isoDate(item.webPublicationDate);
  if (published) result.publishedDate = published;
  const byline = stripMarkup(asString(fields?.byline) ?? '');
  if (byline) result.author = byline;
  const thumbnail = absoluteHttpUrl(asString(fields?.thumbnail));
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  for (const [field, key] of [
    ['section', 'sectionName'],
    ['type', 'type'],
    ['id', 'id'],
    ['pillar', 'pillarName'],
  ] as const) {
    const text = asString(item[key]);
    if (text) extra[field] = text;
  }
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', {
        q: query.query,
        page: query.page,
        'page-size': PAGE_SIZE,
        'order-by': 'relevance',
        'show-fields': FIELDS,
        'api-key': settings.apiKey,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('the guardian answered 429 Too Many Requests');
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(
        `the guardian denied access (${response.status}): check engines.guardian.apiKey`,
      );
    const data = asRecord(parseJsonBody(response.body, 'guardian'));
    const body = asRecord(data?.response);
    if (!body) {
      // Gateway errors come as a bare {"message": "..."}.
      const message = asString(data?.message) ?? 'no response object';
      if (/rate limit/i.test(message)) throw new EngineRateLimitedError(`the guardian: ${message}`);
      if (/unauthori[sz]ed|api key/i.test(message)) throw new EngineAccessDeniedError(`the guardian: ${message}`);
      throw new EngineParseError(`the guardian answered without a response: ${message}`);
    }
    if (body.status !== 'ok') {
      const message = asString(body.message) ?? `status ${String(body.status)}`;
      if (/beyond the number of available pages/i.test(message)) return { results: [] };
      if (/api key/i.test(message)) throw new EngineAccessDeniedError(`the guardian: ${message}`);
      if (/rate limit/i.test(message)) throw new EngineRateLimitedError(`the guardian: ${message}`);
      throw new EngineParseError(`the guardian answered with an error: ${message}`);
    }
    if (!Array.isArray(body.results)) throw new EngineParseError('the guardian answered without results');
    return {
      results: asArray(body.results)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
