/**
 * Brave Search API, news endpoint (api.search.brave.com/res/v1/news/search).
 * Needs a subscription token (engines.brave_news.apiKey).
 */
import { defineEngine, stripMarkup, type EngineResult, type SafeSearch } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { BRAVE_FRESHNESS, braveDate, braveLanguage, braveOffset, braveRequest, braveResults } from './brave-api.js';

const PAGE_SIZE = 20;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'moderate', 2: 'strict' };

function toResult(item: Record<string, unknown>): EngineResult | undefined {
  const url = absoluteHttpUrl(asString(item.url));
  const title = stripMarkup(asString(item.title) ?? '');
  if (!url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(item.description) ?? '') };
  const published = braveDate(item.page_age);
  if (published) result.publishedDate = published;
  const thumbnail = absoluteHttpUrl(asString(asRecord(item.thumbnail)?.src));
  if (thumbnail) result.thumbnail = thumbnail;
  const source = asString(asRecord(item.meta_url)?.hostname);
  if (source) result.extra = { source };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return braveRequest(settings, '/res/v1/news/search', {
      q: query.query,
      count: PAGE_SIZE,
      offset: braveOffset(query),
      freshness: query.timeRange ? BRAVE_FRESHNESS[query.timeRange] : undefined,
      safesearch: SAFE_SEARCH[query.safeSearch],
      search_lang: braveLanguage(query),
    });
  },

  parseResponse(response) {
    const results = braveResults(response.body, 'brave_news').map(toResult);
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
