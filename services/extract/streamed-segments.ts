/**
 * React's streaming server render sends a page in pieces: where content is
 * not ready yet it writes a placeholder (`<template id="B:3">` followed by a
 * fallback such as "Loading paragraph...", or `<template id="P:3">`) and later,
 * at the end of the document, the content itself in `<div hidden id="S:3">`.
 * A small script then moves each piece into its place. Saved pages and
 * fetches without scripts keep the pieces apart, so the article sits in
 * hidden divs after the footer while its place shows "Loading...". This puts
 * each piece where the script would have put it.
 */

/** React ends a boundary's fallback with this comment (`<!--/$-->`). */
const BOUNDARY_END = '/$';
/** Without the comment markers (stripped by some savers), only a short fallback next to the template is dropped. */
const FALLBACK_MAX_CHARS = 120;

function dropFallback(template: Element): void {
  let node = template.nextSibling;
  const fallback: ChildNode[] = [];
  while (node && !(node.nodeType === 8 && (node as Comment).data === BOUNDARY_END)) {
    fallback.push(node);
    node = node.nextSibling;
  }
  if (node) {
    for (const item of fallback) item.remove();
    return;
  }
  const next = template.nextElementSibling;
  if (next && next.localName !== 'template' && (next.textContent ?? '').trim().length <= FALLBACK_MAX_CHARS)
    next.remove();
}

/** What is left of a placeholder's id once characters no React id holds are dropped. */
function repairedId(id: string): string {
  return id.replace(/[^\w:]/g, '');
}

/**
 * Placeholders by their id with damage undone: one broken byte or stray quote in `id="P:1d"` (it then reads
 * `id=\uFFFD"P:1d"`) must not leave the piece it stands for hidden, often the rest of the article.
 */
function damagedPlaceholders(doc: Document): Map<string, Element> {
  const byId = new Map<string, Element>();
  for (const template of Array.from(doc.querySelectorAll('template[id]'))) {
    const id = repairedId(template.id);
    if (id !== template.id && /^[BP]:\w+$/.test(id) && !byId.has(id)) byId.set(id, template);
  }
  return byId;
}

/**
 * React's placeholder templates are empty. A broken end tag (`</te\uFFFDmplate>`) lets one swallow the markup after
 * it, the next placeholders among it, and moving a piece into its place would then remove them all with it: what a
 * placeholder holds is put back after it.
 */
function emptyPlaceholders(doc: Document): void {
  for (const template of Array.from(doc.querySelectorAll('template[id]'))) {
    if (!/^[BP]:/.test(repairedId(template.id))) continue;
    while (template.lastChild) template.after(template.lastChild);
  }
}

export function placeStreamedSegments(doc: Document): void {
  emptyPlaceholders(doc);
  const segments = Array.from(doc.querySelectorAll('div[hidden][id^="S:"]'));
  let damaged: Map<string, Element> | null = null;
  const find = (id: string): Element | null => {
    const exact = doc.getElementById(id);
    if (exact) return exact;
    damaged ??= damagedPlaceholders(doc);
    return damaged.get(id) ?? null;
  };
  for (const segment of segments) {
    const key = repairedId(segment.id).slice(2);
    const boundary = find(`B:${key}`);
    const placeholder = boundary ?? find(`P:${key}`);
    if (!placeholder || placeholder.localName !== 'template' || segment.contains(placeholder)) continue;
    if (boundary) dropFallback(boundary);
    while (segment.firstChild) placeholder.before(segment.firstChild);
    placeholder.remove();
    segment.remove();
  }
}
