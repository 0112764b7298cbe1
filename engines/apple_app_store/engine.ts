/**
 * Apple App Store search through the iTunes Search API
 * (itunes.apple.com/search?entity=software): apps with their store page,
 * description, icon, price and rating.
 */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const LIMIT = 20;
const SNIPPET_LENGTH = 300;
const DEFAULT_COUNTRY = 'US';

function clean(value: unknown): string {
  const text = asString(value);
  return text === undefined ? '' : stripMarkup(text);
}

function shorten(text: string): string {
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : text;
}

/** Store links carry ?uo=4 (an affiliate/tracking marker); the page is the same without it. */
export function storeUrl(value: unknown): string | undefined {
  const absolute = absoluteHttpUrl(asString(value));
  if (!absolute) return undefined;
  const url = new URL(absolute);
  url.searchParams.delete('uo');
  return url.href;
}

function toResult(value: unknown): EngineResult | undefined {
  const app = asRecord(value);
  const url = storeUrl(app?.trackViewUrl);
  const title = clean(app?.trackName);
  if (!app || !url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: shorten(clean(app.description)) };
  const thumbnail = absoluteHttpUrl(asString(app.artworkUrl100)) ?? absoluteHttpUrl(asString(app.artworkUrl60));
  if (thumbnail) result.thumbnail = thumbnail;
  const author = clean(app.sellerName) || clean(app.artistName);
  if (author) result.author = author;
  const released = asString(app.releaseDate) ? new Date(asString(app.releaseDate)!) : undefined;
  if (released && !Number.isNaN(released.getTime())) result.publishedDate = released.toISOString();
  const extra: Record<string, unknown> = {};
  const price = clean(app.formattedPrice);
  if (price) extra.price = price;
  if (typeof app.averageUserRating === 'number') extra.rating = app.averageUserRating;
  if (typeof app.userRatingCount === 'number') extra.ratingCount = app.userRatingCount;
  for (const [name, key] of [
    ['genre', 'primaryGenreName'],
    ['version', 'version'],
    ['bundleId', 'bundleId'],
    ['contentRating', 'contentAdvisoryRating'],
  ] as const) {
    const text = clean(app[key]);
    if (text) extra[name] = text;
  }
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const option = settings.options.country;
    const country = typeof option === 'string' && /^[a-z]{2}$/i.test(option) ? option.toUpperCase() : DEFAULT_COUNTRY;
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', {
        term: query.query,
        entity: 'software',
        media: 'software',
        limit: LIMIT,
        country,
        explicit: query.safeSearch === 2 ? 'No' : undefined,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    // Apple answers over-eager clients with 403 or 429 for a while.
    if (response.status === 429 || response.status === 403)
      throw new EngineRateLimitedError(`the itunes search api answered ${response.status}`);
    const data = asRecord(parseJsonBody(response.body, 'apple_app_store'));
    if (!data || !Array.isArray(data.results)) {
      const message = asString(data?.errorMessage);
      throw new EngineParseError(`the itunes search api answered without results${message ? `: ${message}` : ''}`);
    }
    return {
      results: asArray(data.results)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
