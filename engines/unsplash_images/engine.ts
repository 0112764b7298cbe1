/**
 * Unsplash photos through the JSON endpoint its own site uses
 * (unsplash.com/napi/search/photos), which mirrors the public API's
 * search answer without needing an access key.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult, type SafeSearch } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDateOrUnixSeconds } from '../_lib/dates.js';

const PAGE_SIZE = 20;
/** content_filter: "low" (Unsplash's default) or "high" (strictest). */
const CONTENT_FILTER: Record<SafeSearch, string> = { 0: 'low', 1: 'low', 2: 'high' };

/** Drops Unsplash's per-request tracking parameter (ixid) so URLs stay stable. */
function cleanImageUrl(value: unknown): string | undefined {
  const url = absoluteHttpUrl(asString(value));
  if (!url) return undefined;
  const parsed = new URL(url);
  parsed.searchParams.delete('ixid');
  return parsed.href;
}

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

function toResult(item: unknown): EngineResult | undefined {
  const photo = asRecord(item);
  if (!photo) return undefined;
  const urls = asRecord(photo.urls) ?? {};
  const page = absoluteHttpUrl(asString(asRecord(photo.links)?.html));
  const imageUrl = cleanImageUrl(urls.regular) ?? cleanImageUrl(urls.full) ?? cleanImageUrl(urls.raw);
  if (!page || !imageUrl) return undefined;
  const description = stripMarkup(asString(photo.description) ?? '');
  const alt = stripMarkup(asString(photo.alt_description) ?? '');
  const result: EngineResult = {
    url: page,
    title: description || alt || 'Unsplash photo',
    snippet: description && alt && alt !== description ? alt : '',
    imageUrl,
    thumbnail: cleanImageUrl(urls.thumb) ?? cleanImageUrl(urls.small) ?? imageUrl,
    sourceUrl: page,
  };
  const published = isoDateOrUnixSeconds(photo.created_at);
  if (published) result.publishedDate = published;
  const author = asString(asRecord(photo.user)?.name);
  if (author) result.author = author;
  // width/height are those of the original upload; the regular image keeps the aspect ratio.
  const width = dimension(photo.width);
  const height = dimension(photo.height);
  if (width && height) Object.assign(result, { width, height });
  if (photo.premium === true || photo.plus === true) result.extra = { premium: true };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/napi/search/photos', {
        query: query.query,
        page: query.page,
        per_page: PAGE_SIZE,
        content_filter: CONTENT_FILTER[query.safeSearch],
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'unsplash_images'));
    if (!data || !Array.isArray(data.results)) {
      const errors = asArray(data?.errors).filter((e): e is string => typeof e === 'string');
      throw new EngineParseError(
        `unsplash_images answered without results${errors.length ? `: ${errors.join('; ')}` : ''}`,
      );
    }
    return {
      results: asArray(data.results)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
