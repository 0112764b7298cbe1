/**
 * Pixabay through its official API (GET pixabay.com/api/), which needs a key
 * (engines.pixabay_images.apiKey). Pixabay has no titles: the tags stand in.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResult,
  type SafeSearch,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: 'false', 1: 'true', 2: 'true' };
/** Languages the API's lang parameter accepts (default en). */
export const PIXABAY_LANGUAGES = [
  'cs',
  'da',
  'de',
  'en',
  'es',
  'fr',
  'id',
  'it',
  'hu',
  'nl',
  'no',
  'pl',
  'pt',
  'ro',
  'sk',
  'fi',
  'sv',
  'tr',
  'vi',
  'th',
  'bg',
  'ru',
  'el',
  'ja',
  'ko',
  'zh',
];

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

function toResult(item: unknown): EngineResult | undefined {
  const hit = asRecord(item);
  if (!hit) return undefined;
  const page = absoluteHttpUrl(asString(hit.pageURL));
  const imageUrl = absoluteHttpUrl(asString(hit.largeImageURL)) ?? absoluteHttpUrl(asString(hit.webformatURL));
  if (!page || !imageUrl) return undefined;
  const tags = (asString(hit.tags) ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const result: EngineResult = {
    url: page,
    title: tags.length > 0 ? tags.join(', ') : `Pixabay ${asString(hit.type) ?? 'image'}`,
    snippet: '',
    imageUrl,
    thumbnail: absoluteHttpUrl(asString(hit.webformatURL)) ?? absoluteHttpUrl(asString(hit.previewURL)) ?? imageUrl,
    sourceUrl: page,
  };
  const author = asString(hit.user);
  if (author) result.author = author;
  // imageWidth/imageHeight are the original's; largeImageURL is scaled to at most 1280 px.
  const width = dimension(hit.imageWidth);
  const height = dimension(hit.imageHeight);
  if (width && height) Object.assign(result, { width, height });
  const extra: Record<string, unknown> = {};
  if (asString(hit.type)) extra.type = hit.type;
  if (typeof hit.views === 'number') extra.views = hit.views;
  if (typeof hit.downloads === 'number') extra.downloads = hit.downloads;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const language = query.language.split('-')[0]!.toLowerCase();
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/', {
        key: settings.apiKey ?? '',
        q: query.query.slice(0, 100),
        lang: PIXABAY_LANGUAGES.includes(language) ? language : undefined,
        image_type: 'all',
        safesearch: SAFE_SEARCH[query.safeSearch],
        page: query.page,
        per_page: PAGE_SIZE,
      }),
    };
  },

  parseResponse(response) {
    const body = response.body.trim();
    // Errors come as plain text: "[ERROR 400] Invalid or missing API key ...", "API rate limit exceeded".
    if (/^\[ERROR 40[03]\]|invalid or missing api key/i.test(body))
      throw new EngineAccessDeniedError(`pixabay_images refused the key: ${body.slice(0, 120)}`);
    if (/rate limit/i.test(body) && !body.startsWith('{'))
      throw new EngineRateLimitedError('pixabay_images: API rate limit exceeded');
    if (/^\[ERROR/.test(body))
      throw new EngineParseError(`pixabay_images answered with an error: ${body.slice(0, 120)}`);
    const data = asRecord(parseJsonBody(body, 'pixabay_images'));
    if (!data || !Array.isArray(data.hits)) throw new EngineParseError('pixabay_images answered without hits');
    return {
      results: asArray(data.hits)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
