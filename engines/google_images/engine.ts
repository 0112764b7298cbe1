/**
 * Google's basic-HTML image tab (www.google.com/search?tbm=isch), the page
 * served to browsers without JavaScript: a table of thumbnails (on Google's
 * gstatic host), each linked to the page it is on through /url?q=, with the
 * title and domain below. Older variants link /imgres?imgurl=&imgrefurl=&w=&h=,
 * which also gives the original image and its size.
 */
import { bareHost, defineEngine, EngineParseError, type EngineResult } from '../../core/engine.js';
import { assertNotBlocked, googleSearchParams } from '../_google/google.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const PAGE_SIZE = 20;
const GOOGLE = 'https://www.google.com';

interface Target {
  page: string;
  imageUrl?: string;
  width?: number;
  height?: number;
}

/** The page (and, for /imgres links, the image) a thumbnail link leads to. */
export function imageLinkTarget(href: string | null): Target | undefined {
  if (!href) return undefined;
  if (href.startsWith('/url?')) {
    const params = new URL(href, GOOGLE).searchParams;
    const page = absoluteHttpUrl(params.get('q') ?? params.get('url'));
    return page ? { page } : undefined;
  }
  if (href.startsWith('/imgres?')) {
    const params = new URL(href, GOOGLE).searchParams;
    const imageUrl = absoluteHttpUrl(params.get('imgurl'));
    const page = absoluteHttpUrl(params.get('imgrefurl')) ?? imageUrl;
    if (!page) return undefined;
    const width = Number(params.get('w'));
    const height = Number(params.get('h'));
    return { page, imageUrl, width: width > 0 ? width : undefined, height: height > 0 ? height : undefined };
  }
  const page = absoluteHttpUrl(href);
  return page && !new URL(page).hostname.endsWith('google.com') ? { page } : undefined;
}

function isThumbnail(image: Element): boolean {
  const src = absoluteHttpUrl(image.getAttribute('src'));
  const href = image.closest('a')?.getAttribute('href') ?? '';
  return src !== undefined && (href.startsWith('/url?') || href.startsWith('/imgres?'));
}

/** The largest ancestor of a thumbnail that holds no other thumbnail. */
function tileOf(image: Element): Element {
  let tile = image;
  while (tile.parentElement && [...tile.parentElement.querySelectorAll('img')].filter(isThumbnail).length <= 1)
    tile = tile.parentElement;
  return tile;
}

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  const seen = new Set<string>();
  for (const image of document.querySelectorAll('img')) {
    if (!isThumbnail(image)) continue;
    const target = imageLinkTarget(image.closest('a')!.getAttribute('href'));
    const thumbnail = absoluteHttpUrl(image.getAttribute('src'))!;
    if (!target || seen.has(target.page + thumbnail)) continue;
    seen.add(target.page + thumbnail);
    const tile = tileOf(image);
    // Caption lines: the title, then the site's domain.
    const lines = [...tile.querySelectorAll('span')].map((span) => textOf(span)).filter(Boolean);
    const domain = bareHost(new URL(target.page).hostname);
    const title =
      lines.find((line) => bareHost(line) !== domain) ?? (textOf(tile) || image.getAttribute('alt')?.trim() || domain);
    const result: EngineResult = {
      url: target.page,
      title,
      snippet: '',
      // The basic page links the page only; its thumbnail is then the only image known.
      imageUrl: target.imageUrl ?? thumbnail,
      thumbnail,
      sourceUrl: target.page,
    };
    if (target.width && target.height) Object.assign(result, { width: target.width, height: target.height });
    result.extra = { source: domain };
    results.push(result);
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', googleSearchParams(query, PAGE_SIZE, 'isch')),
    };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('google_images answered with an empty page');
    const results = parseResults(response.body);
    assertNotBlocked('google_images', response, results.length);
    return { results };
  },
});
