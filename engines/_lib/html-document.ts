import { parseHTML } from 'linkedom';

/** A DOM for a result page; linkedom is fast and tolerant of broken markup. */
export function parseHtmlDocument(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

/** The visible text of an element, whitespace collapsed (entities are already decoded by the DOM). */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** An absolute http(s) URL, or undefined for relative, javascript: and malformed links. */
export function absoluteHttpUrl(href: string | null | undefined, base?: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = base ? new URL(href, base) : new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
