/** Parsing HTML into a linkedom document that always has <html> and <body>. */
import { parseHTML } from 'linkedom';

/** linkedom leaves documentElement null for fragments, so fragments get a skeleton. */
export function parseDocument(html: string): Document {
  const source = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(source).document as unknown as Document;
}

/** The element holding the page's visible content: <body>, or <html> when the markup put content outside <body>. */
export function contentRoot(doc: Document): Element {
  const body = doc.body;
  if (body && body.firstChild) return body;
  return doc.documentElement;
}

/** URL that relative links resolve against: <base href> resolved against the page URL. */
export function baseUrlOf(doc: Document, pageUrl: string): URL | null {
  const page = safeUrl(pageUrl);
  const baseHref = doc.querySelector('base[href]')?.getAttribute('href')?.trim();
  if (baseHref) return safeUrl(baseHref, page ?? undefined) ?? page;
  return page;
}

export function safeUrl(value: string, base?: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
