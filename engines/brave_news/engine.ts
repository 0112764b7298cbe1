/**
 * Brave Search API, news endpoint (api.search.brave.com/res/v1/news/search).
 * Needs a subscription token (engines.brave_news.apiKey).
 */
import { defineEngine, type EngineResult } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { braveListedResult, braveListingParams, braveRequest, braveResults } from '../_brave/brave-api.js';

const PAGE_SIZE = 20;

function toResult(item: Record<string, unknown>): EngineResult | undefined {
  const result = braveListedResult(item);
  if (!result) return undefined;
  const thumbnail = absoluteHttpUrl(asString(asRecord(item.thumbnail)?.src));
  if (thumbnail) result.thumbnail = thumbnail;
  const source = asString(asRecord(item.meta_url)?.hostname);
  if (source) result.extra = { source };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return braveRequest(settings, '/res/v1/news/search', braveListingParams(query, PAGE_SIZE));
  },

  parseResponse(response) {
    const results = braveResults(response.body, 'brave_news').map(toResult);
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
