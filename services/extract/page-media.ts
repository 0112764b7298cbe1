/**
 * What a read page offers beyond its text: the images of its main content
 * with a description (alt text, else the figure's caption, else the title
 * attribute), and its favicon (a declared icon link, else /favicon.ico).
 * Runs in the extraction worker pool (ExtractOptions.media), on the document
 * extraction parsed: the descriptions are read before the content scorer
 * rewrites it, and matched to the main content's images after.
 */
import type { PageMedia } from './types.js';

const IMAGE_SOURCES = ['src', 'data-src', 'data-original', 'data-lazy-src'];

/** What the untouched page says of its images and its icon. */
export interface MediaSources {
  /** Each image URL the page names (every lazy-loading attribute too), with its description or null. */
  descriptions: Map<string, string | null>;
  /** The first declared icon link, resolved; null when the page declares none. */
  favicon: string | null;
}

function resolve(url: string | null | undefined, base: string): string | null {
  if (!url?.trim()) return null;
  try {
    const parsed = new URL(url.trim(), base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function clean(text: string | null | undefined): string | null {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? value.slice(0, 300) : null;
}

/** Reads the image descriptions and the icon link of a parsed page, URLs resolved against its base. */
export function readMediaSources(document: Document, baseUrl: string): MediaSources {
  const descriptions = new Map<string, string | null>();
  let favicon: string | null = null;
  for (const img of Array.from(document.querySelectorAll('img'))) {
    const element = img as Element;
    const caption = element.closest('figure')?.querySelector('figcaption')?.textContent;
    const description = clean(element.getAttribute('alt')) ?? clean(caption) ?? clean(element.getAttribute('title'));
    for (const attribute of IMAGE_SOURCES) {
      const url = resolve(element.getAttribute(attribute), baseUrl);
      if (url && !descriptions.get(url)) descriptions.set(url, description);
    }
  }
  for (const link of Array.from(document.querySelectorAll('link[rel]'))) {
    const rel = (link as Element).getAttribute('rel')?.toLowerCase().split(/\s+/) ?? [];
    if (rel.includes('icon')) favicon ??= resolve((link as Element).getAttribute('href'), baseUrl);
  }
  return { descriptions, favicon };
}

/**
 * The main-content images (as the extractor listed them, in its order, at most `imageLimit`) with their
 * descriptions, and the favicon. Without sources (a PDF, a page the parser refused) the favicon is /favicon.ico.
 */
export function pageMedia(
  sources: MediaSources | undefined,
  pageUrl: string,
  mainImages: string[],
  imageLimit = 5,
): PageMedia {
  return {
    images: mainImages
      .slice(0, imageLimit)
      .map((url) => ({ url, description: sources?.descriptions.get(url) ?? null })),
    favicon: sources?.favicon ?? resolve('/favicon.ico', pageUrl),
  };
}
