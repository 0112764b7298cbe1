/**
 * A SearXNG instance's JSON API (<baseUrl>/search?format=json). The instance
 * must have "json" in search.formats of its settings.yml, or it answers 403.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult, type TimeRange } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const TIME_RANGE: Record<TimeRange, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  const url = absoluteHttpUrl(asString(item?.url));
  const title = stripMarkup(asString(item?.title) ?? '');
  if (!item || !url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(item.content) ?? '') };
  const published = asString(item.publishedDate);
  if (published) result.publishedDate = published;
  const imageUrl = absoluteHttpUrl(asString(item.img_src));
  if (imageUrl) result.imageUrl = imageUrl;
  const thumbnail = absoluteHttpUrl(asString(item.thumbnail) ?? asString(item.thumbnail_src));
  if (thumbnail) result.thumbnail = thumbnail;
  const author = asString(item.author);
  if (author) result.author = author;
  result.extra = { engine: item.engine, engines: asArray(item.engines), score: item.score, category: item.category };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      q: query.query,
      format: 'json',
      pageno: query.page,
      language: query.language,
      safesearch: query.safeSearch,
      time_range: query.timeRange ? TIME_RANGE[query.timeRange] : undefined,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'searxng'));
    if (!data || !Array.isArray(data.results)) throw new EngineParseError('searxng answered without a results array');
    return { results: data.results.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
