/** Wikimedia Commons file search: generator=search in the File namespace, with imageinfo for URLs and sizes. */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 20;
const THUMBNAIL_WIDTH = 400;

interface ImageInfo {
  url?: string;
  thumburl?: string;
  width?: number;
  height?: number;
  thumbwidth?: number;
  thumbheight?: number;
  descriptionurl?: string;
  mime?: string;
  user?: string;
  extmetadata?: Record<string, { value?: unknown }>;
}

interface FilePage {
  title?: string;
  index?: number;
  imageinfo?: ImageInfo[];
}

function metadata(info: ImageInfo, field: string): string {
  const value = info.extmetadata?.[field]?.value;
  return typeof value === 'string' ? stripMarkup(value) : '';
}

/** "File:Minchinmavida Volcano.jpg" → "Minchinmavida Volcano". */
function displayTitle(title: string): string {
  return title.replace(/^File:/, '').replace(/\.[a-z0-9]{2,5}$/i, '');
}

function pageToResult(page: FilePage): EngineResult | undefined {
  const info = page.imageinfo?.[0];
  if (!page.title || !info?.url || !info.descriptionurl) return undefined;
  const description = metadata(info, 'ImageDescription');
  const artist = metadata(info, 'Artist') || info.user;
  const license = metadata(info, 'LicenseShortName');
  return {
    url: info.descriptionurl,
    title: displayTitle(page.title),
    snippet: description || [artist, license].filter(Boolean).join(' — '),
    author: artist || undefined,
    imageUrl: info.url,
    thumbnail: info.thumburl ?? info.url,
    width: info.width,
    height: info.height,
    sourceUrl: info.descriptionurl,
    extra: { license: license || undefined, mime: info.mime },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      action: 'query',
      format: 'json',
      generator: 'search',
      gsrsearch: ctx.query.query,
      gsrnamespace: '6',
      gsrlimit: String(PAGE_SIZE),
      gsroffset: String((ctx.query.page - 1) * PAGE_SIZE),
      prop: 'imageinfo',
      iiprop: 'url|size|mime|user|extmetadata',
      iiurlwidth: String(THUMBNAIL_WIDTH),
      iiextmetadatafilter: 'ImageDescription|Artist|LicenseShortName',
    });
    return { method: 'GET', url: `${base}/w/api.php?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { query?: { pages?: Record<string, FilePage> | FilePage[] }; error?: { code?: string; info?: string } };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('wikimedia commons did not answer JSON');
    }
    if (body.error) throw new EngineParseError(`wikimedia commons: ${body.error.code} ${body.error.info ?? ''}`.trim());
    const pages = Object.values(body.query?.pages ?? {});
    // Generator pages come keyed by page id; "index" carries the search rank.
    pages.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return { results: pages.map(pageToResult).filter((result) => result !== undefined) };
  },
});
