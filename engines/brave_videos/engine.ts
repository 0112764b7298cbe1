/**
 * Brave Search API, videos endpoint (api.search.brave.com/res/v1/videos/search).
 * Needs a subscription token (engines.brave_videos.apiKey).
 */
import { defineEngine, stripMarkup, type EngineResult, type SafeSearch } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { BRAVE_FRESHNESS, braveDate, braveLanguage, braveOffset, braveRequest, braveResults } from '../brave_news/brave-api.js';

const PAGE_SIZE = 20;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };

function toResult(item: Record<string, unknown>): EngineResult | undefined {
  const url = absoluteHttpUrl(asString(item.url));
  const title = stripMarkup(asString(item.title) ?? '');
  if (!url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(item.description) ?? '') };
  const published = braveDate(item.page_age);
  if (published) result.publishedDate = published;
  const thumbnail = asRecord(item.thumbnail) ?? {};
  const thumbnailUrl = absoluteHttpUrl(asString(thumbnail.src)) ?? absoluteHttpUrl(asString(thumbnail.original));
  if (thumbnailUrl) result.thumbnail = thumbnailUrl;
  const video = asRecord(item.video) ?? {};
  const author = asString(video.creator) ?? asString(asRecord(video.author)?.name);
  if (author) result.author = author;
  const extra: Record<string, unknown> = {};
  if (asString(video.duration)) extra.duration = video.duration;
  if (typeof video.views === 'number') extra.views = video.views;
  if (asString(video.publisher)) extra.publisher = video.publisher;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return braveRequest(settings, '/res/v1/videos/search', {
      q: query.query,
      count: PAGE_SIZE,
      offset: braveOffset(query),
      freshness: query.timeRange ? BRAVE_FRESHNESS[query.timeRange] : undefined,
      safesearch: SAFE_SEARCH[query.safeSearch],
      search_lang: braveLanguage(query),
    });
  },

  parseResponse(response) {
    const results = braveResults(response.body, 'brave_videos').map(toResult);
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
