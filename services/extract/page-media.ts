/**
 * What a read page offers beyond its text: the images of its main content
 * with a description (alt text, else the figure's caption, else the title
 * attribute), and its favicon (a declared icon link, else /favicon.ico).
 * Runs in the extraction worker pool (ExtractOptions.media).
 */
import { parseDocument } from './parse-document.js';
import type { PageMedia } from './types.js';

const IMAGE_SOURCES = ['src', 'data-src', 'data-original', 'data-lazy-src'];

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

/**
 * The main-content images (as the extractor listed them, in its order, at most `imageLimit`)
 * with their descriptions, and the favicon; one parse of the HTML.
 */
export function pageMedia(html: string | undefined, baseUrl: string, mainImages: string[], imageLimit = 5): PageMedia {
  const described = new Map<string, string | null>();
  let favicon: string | null = null;
  if (html) {
    const document = parseDocument(html);
    for (const img of Array.from(document.querySelectorAll('img'))) {
      const element = img as Element;
      const caption = element.closest('figure')?.querySelector('figcaption')?.textContent;
      const description = clean(element.getAttribute('alt')) ?? clean(caption) ?? clean(element.getAttribute('title'));
      for (const attribute of IMAGE_SOURCES) {
        const url = resolve(element.getAttribute(attribute), baseUrl);
        if (url && !described.get(url)) described.set(url, description);
      }
    }
    for (const link of Array.from(document.querySelectorAll('link[rel]'))) {
      const rel = (link as Element).getAttribute('rel')?.toLowerCase().split(/\s+/) ?? [];
      if (rel.includes('icon')) favicon ??= resolve((link as Element).getAttribute('href'), baseUrl);
    }
  }
  return {
    images: mainImages.slice(0, imageLimit).map((url) => ({ url, description: described.get(url) ?? null })),
    favicon: favicon ?? resolve('/favicon.ico', baseUrl),
  };
}
