/**
 * Brave Search API, images endpoint (api.search.brave.com/res/v1/images/search).
 * Needs a subscription token (engines.brave_images.apiKey). The endpoint has
 * no offset (one page of up to 200 images) and only off/strict safe search.
 */
import { defineEngine, stripMarkup, type EngineResult, type SafeSearch } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { braveLanguage, braveRequest, braveResults } from '../_brave/brave-api.js';

const PAGE_SIZE = 50;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'off', 1: 'strict', 2: 'strict' };

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

function toResult(item: Record<string, unknown>): EngineResult | undefined {
  const page = absoluteHttpUrl(asString(item.url));
  const properties = asRecord(item.properties) ?? {};
  const imageUrl = absoluteHttpUrl(asString(properties.url));
  const title = stripMarkup(asString(item.title) ?? '');
  if (!page || !imageUrl || !title) return undefined;
  const thumbnail = asRecord(item.thumbnail) ?? {};
  const result: EngineResult = {
    url: page,
    title,
    snippet: '',
    imageUrl,
    thumbnail: absoluteHttpUrl(asString(thumbnail.src)) ?? imageUrl,
    sourceUrl: page,
  };
  // Dimensions are optional in the API; the original's when given, else the thumbnail's are no use.
  const width = dimension(properties.width);
  const height = dimension(properties.height);
  if (width && height) Object.assign(result, { width, height });
  const source = asString(item.source);
  if (source) result.extra = { source };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return braveRequest(settings, '/res/v1/images/search', {
      q: query.query,
      count: PAGE_SIZE,
      safesearch: SAFE_SEARCH[query.safeSearch],
      search_lang: braveLanguage(query),
    });
  },

  parseResponse(response) {
    const results = braveResults(response.body, 'brave_images').map(toResult);
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
