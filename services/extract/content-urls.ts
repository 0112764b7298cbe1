/** Absolute, deduplicated image and link URLs of the main content. */
import type { ExtractedLink } from './types.js';
import { safeUrl } from './parse-document.js';

const WEB_PROTOCOLS = new Set(['http:', 'https:']);
const LAZY_SOURCE_ATTRIBUTES = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** Absolute http(s) URL, or null for data:, javascript:, mailto: and unparseable values. */
export function absoluteWebUrl(raw: string | null | undefined, base: URL | null): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const url = safeUrl(value, base ?? undefined);
  return url && WEB_PROTOCOLS.has(url.protocol) ? url.href : null;
}

/** True when `href` only points inside the page itself (#section, footnotes), written relative or absolute. */
export function isInPageAnchor(href: string, pageUrl: URL | null, base: URL | null): boolean {
  if (href.startsWith('#')) return true;
  const url = safeUrl(href, base ?? pageUrl ?? undefined);
  if (!url || url.hash === '') return false;
  const target = withoutHash(url);
  return [pageUrl, base].some((candidate) => candidate !== null && withoutHash(candidate) === target);
}

function withoutHash(url: URL): string {
  return url.href.split('#')[0] ?? url.href;
}

function firstSrcsetUrl(srcset: string | null): string | null {
  const first = srcset?.split(',')[0]?.trim().split(/\s+/)[0];
  return first || null;
}

/** The image's real source: lazy-loading pages keep it in data-* or srcset while src holds a placeholder. */
export function imageSource(image: Element, base: URL | null): string | null {
  const candidates = [
    image.getAttribute('src'),
    ...LAZY_SOURCE_ATTRIBUTES.map((name) => image.getAttribute(name)),
    firstSrcsetUrl(image.getAttribute('srcset')),
  ];
  for (const candidate of candidates) {
    const url = absoluteWebUrl(candidate, base);
    if (url) return url;
  }
  return null;
}

export function collectImages(root: Element, base: URL | null): string[] {
  const seen = new Set<string>();
  for (const image of Array.from(root.querySelectorAll('img'))) {
    const url = imageSource(image, base);
    if (url) seen.add(url);
  }
  return [...seen];
}

export function collectLinks(root: Element, base: URL | null, pageUrl: URL | null): ExtractedLink[] {
  const byUrl = new Map<string, ExtractedLink>();
  for (const anchor of Array.from(root.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href') ?? '';
    if (isInPageAnchor(href, pageUrl, base)) continue;
    const url = absoluteWebUrl(href, base);
    if (!url) continue;
    const text = (anchor.textContent ?? '').replace(/\s+/g, ' ').trim();
    const known = byUrl.get(url);
    if (!known) byUrl.set(url, { url, text });
    else if (!known.text && text) known.text = text;
  }
  return [...byUrl.values()];
}
