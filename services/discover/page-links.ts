/** The links of one HTML page, resolved against its <base href> or its own URL (run in the extraction worker pool). */
import { baseUrlOf, parseDocument } from '../extract/parse-document.js';
import { normaliseUrl } from './site-urls.js';

export function linksOf(html: string, pageUrl: string): URL[] {
  return linksOfDocument(parseDocument(html), pageUrl);
}

/** The links of a parsed page that nothing has changed yet (extraction hands its parse here before it rewrites it). */
export function linksOfDocument(document: Document, pageUrl: string): URL[] {
  const base = baseUrlOf(document, pageUrl);
  if (!base) return [];
  const links: URL[] = [];
  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    const url = normaliseUrl(anchor.getAttribute('href') ?? '', base);
    if (url) links.push(url);
  }
  return links;
}
