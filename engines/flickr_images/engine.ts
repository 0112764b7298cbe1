/** Flickr photo search through the REST API (flickr.photos.search, JSON); needs an API key. */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
  type SafeSearch,
} from '../../core/engine.js';

const PAGE_SIZE = 20;
const EXTRAS = 'description,owner_name,date_taken,url_t,url_s,url_m,url_l,url_o';
/** Flickr's safe_search: 1 safe, 2 moderate, 3 restricted (i.e. everything). */
const SAFE_SEARCH: Record<SafeSearch, string> = { 0: '3', 1: '2', 2: '1' };
/** Largest first for the image, smallest usable first for the thumbnail. */
const IMAGE_SIZES = ['l', 'o', 'm', 's', 't'] as const;
const THUMBNAIL_SIZES = ['m', 's', 't'] as const;

type Photo = Record<string, unknown> & {
  id?: string;
  owner?: string;
  title?: string;
  ownername?: string;
  datetaken?: string;
  description?: { _content?: string };
};

function sized(photo: Photo, sizes: readonly string[]): { url: string; width?: number; height?: number } | undefined {
  for (const size of sizes) {
    const url = photo[`url_${size}`];
    if (typeof url === 'string' && url) {
      const width = Number(photo[`width_${size}`]);
      const height = Number(photo[`height_${size}`]);
      return { url, width: width > 0 ? width : undefined, height: height > 0 ? height : undefined };
    }
  }
  return undefined;
}

/** "2011-11-05 15:54:37" (the photographer's local time) → "2011-11-05T15:54:37". */
function takenDate(value: string | undefined): string | undefined {
  return value && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? value.replace(' ', 'T') : undefined;
}

function photoToResult(photo: Photo): EngineResult | undefined {
  const image = sized(photo, IMAGE_SIZES);
  if (!photo.id || !photo.owner || !image) return undefined;
  const page = `https://www.flickr.com/photos/${encodeURIComponent(photo.owner)}/${encodeURIComponent(photo.id)}`;
  const description = stripMarkup(photo.description?._content ?? '');
  return {
    url: page,
    title: stripMarkup(photo.title ?? '') || photo.id,
    snippet: description,
    publishedDate: takenDate(photo.datetaken),
    author: photo.ownername,
    imageUrl: image.url,
    thumbnail: sized(photo, THUMBNAIL_SIZES)?.url ?? image.url,
    width: image.width,
    height: image.height,
    sourceUrl: page,
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      method: 'flickr.photos.search',
      api_key: ctx.settings.apiKey ?? '',
      text: ctx.query.query,
      sort: 'relevance',
      extras: EXTRAS,
      per_page: String(PAGE_SIZE),
      page: String(ctx.query.page),
      safe_search: SAFE_SEARCH[ctx.query.safeSearch],
      content_type: '1', // photos only, no screenshots
      format: 'json',
      nojsoncallback: '1',
    });
    return { method: 'GET', url: `${base}/services/rest/?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { stat?: string; code?: number; message?: string; photos?: { photo?: Photo[] } };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('flickr did not answer JSON');
    }
    if (body.stat === 'fail') {
      // 100: invalid API key, 105: service unavailable.
      if (body.code === 100) throw new EngineAccessDeniedError(`flickr: ${body.message ?? 'invalid API key'}`);
      throw new EngineParseError(`flickr: ${body.message ?? `error ${body.code}`}`);
    }
    return { results: (body.photos?.photo ?? []).map(photoToResult).filter((result) => result !== undefined) };
  },
});
