/** Which links discovery keeps and follows: normalised, http(s), in-site, not an asset. */
import { hostOf, siteKey } from '../web-search/hosts.js';

/**
 * Files that are not pages: never reported or fetched by the link crawl.
 * Documents (.pdf, .docx, .txt, ...) are kept: they are content a caller may want to scrape.
 */
const ASSET_EXTENSIONS = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'css',
  'js',
  'mjs',
  'map',
  'json',
  'xml',
  'rss',
  'atom',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp3',
  'mp4',
  'm4a',
  'm4v',
  'webm',
  'ogg',
  'oga',
  'ogv',
  'wav',
  'flac',
  'avi',
  'mov',
  'mkv',
  'zip',
  'gz',
  'tgz',
  'tar',
  'rar',
  '7z',
  'bz2',
  'xz',
  'exe',
  'msi',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  'apk',
  'iso',
  'bin',
  'wasm',
]);

/** Pages linked from HTML worth fetching for more links; everything else is only reported. */
const NON_HTML_DOCUMENT_EXTENSIONS = new Set([
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'txt',
  'csv',
  'epub',
  'rtf',
]);

/** Resolves href against base; null unless http(s). Drops the fragment, keeps the query as written. */
export function normaliseUrl(href: string, base?: URL | string): URL | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url;
}

function extensionOf(url: URL): string {
  const lastSegment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  return dot > 0 ? lastSegment.slice(dot + 1).toLowerCase() : '';
}

export function isAssetUrl(url: URL): boolean {
  return ASSET_EXTENSIONS.has(extensionOf(url));
}

export function mayHoldLinks(url: URL): boolean {
  const extension = extensionOf(url);
  return !ASSET_EXTENSIONS.has(extension) && !NON_HTML_DOCUMENT_EXTENSIONS.has(extension);
}

/**
 * The sites counted as "the site" (services/web-search/hosts.ts: scheme and a www label aside,
 * port kept): base_url's, plus where base_url redirects to on the same host on another port.
 */
export class SiteScope {
  private readonly sites = new Set<string>();

  constructor(private readonly base: URL) {
    this.sites.add(siteKey(base)!);
  }

  /** Accepts base_url's redirect target when it stays on the same host (http → https on another port, say). */
  acceptRedirectOf(finalUrl: string): void {
    const final = normaliseUrl(finalUrl);
    if (final && hostOf(final) === hostOf(this.base)) this.sites.add(siteKey(final)!);
  }

  contains(url: URL): boolean {
    return this.sites.has(siteKey(url)!);
  }
}

/**
 * Whether a response may hold links. No Content-Type at all: sniffing is what browsers do, and parsing non-HTML just
 * finds no links.
 */
export function isHtml(contentType: string | undefined): boolean {
  return contentType === undefined || /html/i.test(contentType);
}
