/**
 * Dailymotion through its public Data API (GET api.dailymotion.com/videos),
 * which needs no key for searching public videos.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult, type SafeSearch } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDateOrUnixSeconds } from '../_lib/dates.js';
import { formatDuration } from '../_video/duration.js';

const PAGE_SIZE = 20;
const FIELDS = 'id,title,description,thumbnail_360_url,duration,created_time,url';
/** family_filter=true hides explicit videos. */
const FAMILY_FILTER: Record<SafeSearch, string> = { 0: 'false', 1: 'true', 2: 'true' };

function toResult(item: unknown): EngineResult | undefined {
  const video = asRecord(item);
  if (!video) return undefined;
  const id = asString(video.id);
  const url = absoluteHttpUrl(asString(video.url)) ?? (id ? `https://www.dailymotion.com/video/${id}` : undefined);
  const title = stripMarkup(asString(video.title) ?? '');
  if (!url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(video.description) ?? '') };
  const published = isoDateOrUnixSeconds(video.created_time);
  if (published) result.publishedDate = published;
  const thumbnail = absoluteHttpUrl(asString(video.thumbnail_360_url));
  if (thumbnail) result.thumbnail = thumbnail;
  const duration = formatDuration(video.duration);
  if (duration) result.extra = { duration, durationSeconds: video.duration };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const language = query.language === 'all' ? undefined : query.language.split('-')[0];
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/videos', {
        search: query.query,
        fields: FIELDS,
        sort: 'relevance',
        limit: PAGE_SIZE,
        page: query.page,
        family_filter: FAMILY_FILTER[query.safeSearch],
        languages: language,
        private: 0,
        password_protected: 0,
      }),
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'dailymotion'));
    const error = asRecord(data?.error);
    if (error)
      throw new EngineParseError(
        `dailymotion answered with an error: ${asString(error.message) ?? asString(error.type) ?? 'unknown'}`,
      );
    if (!data || !Array.isArray(data.list)) throw new EngineParseError('dailymotion answered without a list');
    return {
      results: asArray(data.list)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
