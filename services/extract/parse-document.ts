/** Parsing HTML into a linkedom document that always has <html> and <body>. */
import { parseHTML } from 'linkedom';
import { assertReadableNesting } from './markup-depth.js';

/**
 * linkedom leaves documentElement null for fragments, so fragments get a skeleton.
 * Throws MarkupTooDeepError (markup-depth.ts) for documents no browser would nest.
 */
export function parseDocument(html: string): Document {
  assertReadableNesting(html);
  // Outside SVG a browser reads "<![CDATA[" as a bogus comment; linkedom would read the rest of the page as CDATA.
  const { markup, hasHtmlTag, htmlAttributes } = withoutStrayDocumentTags(
    withClosedTitle(withShortClassLists(html.includes('<![CDATA[') ? html.replaceAll('<![CDATA[', '') : html)),
  );
  const source = hasHtmlTag
    ? markup
    : `<!DOCTYPE html><html${htmlAttributes}><head></head><body>${markup}</body></html>`;
  const doc = parseHTML(source).document as unknown as Document;
  repairTree(doc);
  endNestedLinks(doc);
  // A browser's tree builder puts a run of text in one Text node; linkedom starts a new one at every character
  // reference, so a broken `&aaaa…;` between real references became many short "words" in the content scorer.
  doc.documentElement?.normalize();
  return doc;
}

/**
 * Longer than any real page's class list; linkedom's classList.add(...tokens) overflows the stack near 100,000 tokens.
 */
const MAX_CLASS_CHARS = 10_000;
const LONG_CLASS = new RegExp(
  `(\\sclass\\s*=\\s*)(?:"([^"]{${MAX_CLASS_CHARS},})"|'([^']{${MAX_CLASS_CHARS},})')`,
  'gi',
);

/**
 * A <title> whose end tag is broken (`</ti\uFFFDtle>`) holds the rest of the page as its text, in a browser too, which
 * then shows an empty page. No title holds markup, so one that never ends ends at the next tag. Every title is
 * checked: a page can have two (a theme's and a plugin's), and an end tag found after the next title's start is
 * that one's, not this one's.
 */
function withClosedTitle(html: string): string {
  const ends = /<\/title\s*>/gi;
  const laterStarts = /<title\b/gi;
  let repaired = html;
  let inserted = 0;
  for (const start of html.matchAll(/<title\b[^>]*>/gi)) {
    const from = (start.index ?? 0) + start[0].length;
    ends.lastIndex = from;
    const end = ends.exec(html)?.index ?? -1;
    laterStarts.lastIndex = from;
    const nextStart = laterStarts.exec(html)?.index ?? -1;
    if (end >= 0 && (nextStart < 0 || nextStart > end)) continue;
    const next = html.indexOf('<', from);
    if (next < 0) break;
    repaired = `${repaired.slice(0, next + inserted)}</title>${repaired.slice(next + inserted)}`;
    inserted += '</title>'.length;
  }
  return repaired;
}

/** A huge class attribute loses its tail, not the page: linkedom would throw a RangeError on it. */
function withShortClassLists(html: string): string {
  return html.replace(LONG_CLASS, (_, name: string, double?: string, single?: string) => {
    const value = (double ?? single ?? '').slice(0, MAX_CLASS_CHARS);
    return double === undefined ? `${name}'${value}'` : `${name}"${value}"`;
  });
}

/** A document tag, or the start of what its text is not markup in (a comment, a script, a style). */
const DOCUMENT_TAG_OR_RAW_TEXT = /<!--|<(script|style)(?=[\s/>])|<(\/?)(html|head|body)(?=[\s/>])[^<>]*>/gi;

/**
 * A browser ignores a second <html>, <head> or <body> start tag and every
 * </body> and </html> (what follows still goes into the body); linkedom would
 * nest a new document element or leave the rest of the page outside the body.
 * So only the first start tag of each and the first </head> are kept. Tags inside
 * comments and scripts are text, not tags: a conditional comment's
 * `<!--[if IE]><html class="ie"><![endif]-->` must not count as the page's <html>
 * (taking it for one dropped the real one, and with it every such page's text).
 * Body content (an element no <head> holds, or text) before the first of them opens the body in a browser: the
 * page's own <html>, <head> and <body> tags that follow are stray then, the <html>'s attributes merged into the one
 * the browser made (an `<em>` left before `<!DOCTYPE html>` had linkedom nest the whole document in it).
 * One pass, each character looked at once.
 */
function withoutStrayDocumentTags(html: string): { markup: string; hasHtmlTag: boolean; htmlAttributes: string } {
  const seen = new Set<string>();
  let bodyOpened = false;
  let htmlAttributes = '';
  const scan = new RegExp(DOCUMENT_TAG_OR_RAW_TEXT.source, 'gi');
  const closers: Record<string, RegExp> = { script: /<\/script/gi, style: /<\/style/gi };
  let markup = '';
  let kept = 0;
  let scanned = 0;
  for (let match = scan.exec(html); match; match = scan.exec(html)) {
    if (seen.size === 0 && !bodyOpened) bodyOpened = holdsBodyContent(html.slice(scanned, match.index));
    if (match[0] === '<!--') {
      const close = html.indexOf('-->', scan.lastIndex);
      scan.lastIndex = close < 0 ? html.length : close + 3;
      scanned = scan.lastIndex;
      continue;
    }
    if (match[1]) {
      const closer = closers[match[1].toLowerCase()]!;
      closer.lastIndex = scan.lastIndex;
      scan.lastIndex = closer.exec(html) ? closer.lastIndex : html.length;
      scanned = scan.lastIndex;
      continue;
    }
    const key = `${match[2]}${match[3]!.toLowerCase()}`;
    // An <html> after the page's <head> or <body> began is a stray one too.
    const late = key === 'html' && (seen.has('head') || seen.has('body'));
    if (bodyOpened && key === 'html' && !htmlAttributes) htmlAttributes = /^<html([^<>]*)>$/i.exec(match[0])?.[1] ?? '';
    if (bodyOpened || key === '/html' || key === '/body' || seen.has(key) || late) {
      markup += html.slice(kept, match.index);
      kept = scan.lastIndex;
    } else seen.add(key);
    scanned = scan.lastIndex;
  }
  return { markup: markup + html.slice(kept), hasHtmlTag: seen.has('html'), htmlAttributes };
}

const HEAD_ELEMENTS = new Set(['style', 'script', 'meta', 'link', 'title', 'base', 'noscript', 'template']);

/** Markup and text a browser keeps in <head> before the page's <html>: a doctype, head elements, comments, spaces. */
const HEAD_MATERIAL = new RegExp(
  `<!doctype[^>]*>|<title\\b[\\s\\S]*?<\\/title\\s*>|<\\/?(?:${[...HEAD_ELEMENTS].join('|')})\\b[^<>]*>|<\\?[^>]*>|^>`,
  'gi',
);

/** Whether markup seen before any <html>, <head> or <body> tag holds something only a body holds. */
function holdsBodyContent(markup: string): boolean {
  return /\S/.test(markup.replace(HEAD_MATERIAL, ''));
}

/**
 * linkedom is not an HTML5 tree builder: markup before <html> or after
 * </body> / </html> stays outside <body> (a leading <style> even becomes the
 * documentElement), and content inside <head> stays there. Browsers put all
 * of it in <head> or <body>, so this does too.
 */
function repairTree(doc: Document): void {
  const html = Array.from(doc.childNodes).find(
    (node): node is Element => node.nodeType === 1 && (node as Element).localName === 'html',
  );
  if (!html) return;
  const head = Array.from(html.children).find((child) => child.localName === 'head');
  const body = Array.from(html.children).find((child) => child.localName === 'body') ?? bodyFor(doc, html, head);
  if (!body) return;
  if (head) moveContentOutOfHead(head, body);
  let beforeHtml = true;
  for (const node of Array.from(doc.childNodes)) {
    if (node === html) {
      beforeHtml = false;
      continue;
    }
    if (node.nodeType !== 1 && !isText(node)) continue;
    const isHeadElement = node.nodeType === 1 && HEAD_ELEMENTS.has((node as Element).localName);
    if (beforeHtml && isHeadElement && head) head.appendChild(node);
    else if (beforeHtml) body.insertBefore(node, body.firstChild);
    else body.appendChild(node);
  }
  // Elements after </body> but inside <html> belong to the body as well.
  for (let node = body.nextSibling; node; node = body.nextSibling) body.appendChild(node);
}

function isText(node: Node): boolean {
  return node.nodeType === 3 && /\S/.test((node as Text).data);
}

/**
 * A page whose <body> start tag was lost (inside a script left open, say) gets one when its <head> holds content:
 * a browser opens the body there.
 */
function bodyFor(doc: Document, html: Element, head: Element | undefined): Element | undefined {
  if (!head || !Array.from(head.childNodes).some(isBodyContent)) return undefined;
  return html.appendChild(doc.createElement('body'));
}

function isBodyContent(node: Node): boolean {
  return node.nodeType === 1 ? !HEAD_ELEMENTS.has((node as Element).localName) : isText(node);
}

/**
 * The first element or text in <head> that does not belong there ends the head in a browser: it and everything after
 * it go to the start of the body.
 */
function moveContentOutOfHead(head: Element, body: Element): void {
  const first = Array.from(head.childNodes).find(isBodyContent);
  if (!first) return;
  const moved = head.ownerDocument.createDocumentFragment();
  for (let node: ChildNode | null = first; node; ) {
    const next: ChildNode | null = node.nextSibling;
    moved.appendChild(node);
    node = next;
  }
  body.insertBefore(moved, body.firstChild);
}

/**
 * Links do not nest: where an <a> starts inside an open one (the first one's end tag was lost), a browser ends the
 * first. linkedom nests them, and a skip link left open would make the whole page link text. So the outer link
 * ends before its child that holds the inner one; that child and what follows it move out, after the link.
 */
function endNestedLinks(doc: Document): void {
  for (const inner of Array.from(doc.querySelectorAll('a a'))) {
    const outer = inner.parentElement?.closest('a');
    if (!outer?.parentNode) continue;
    let split: Element = inner;
    while (split.parentElement !== outer) split = split.parentElement!;
    const after = outer.nextSibling;
    for (let node: ChildNode | null = split; node; ) {
      const next: ChildNode | null = node.nextSibling;
      outer.parentNode.insertBefore(node, after);
      node = next;
    }
  }
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
