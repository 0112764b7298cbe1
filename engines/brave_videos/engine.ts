/**
 * Brave Search API, videos endpoint (api.search.brave.com/res/v1/videos/search).
 * Needs a subscription token (engines.brave_videos.apiKey).
 */
import { defineEngine, type EngineResult } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { braveListedResult, braveListingParams, braveRequest, braveResults } from '../_brave/brave-api.js';

const PAGE_SIZE = 20;

function toResult(item: Record<string, unknown>): EngineResult | undefined {
  const result = braveListedResult(item);
  if (!result) return undefined;
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
    return braveRequest(settings, '/res/v1/videos/search', braveListingParams(query, PAGE_SIZE));
  },

  parseResponse(response) {
    const results = braveResults(response.body, 'brave_videos').map(toResult);
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
