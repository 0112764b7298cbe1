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

export function placeStreamedSegments(doc: Document): void {
  const segments = Array.from(doc.querySelectorAll('div[hidden][id^="S:"]'));
  for (const segment of segments) {
    const key = segment.id.slice(2);
    const boundary = doc.getElementById(`B:${key}`);
    const placeholder = boundary ?? doc.getElementById(`P:${key}`);
    if (!placeholder || placeholder.localName !== 'template' || segment.contains(placeholder)) continue;
    if (boundary) dropFallback(boundary);
    while (segment.firstChild) placeholder.before(segment.firstChild);
    placeholder.remove();
    segment.remove();
  }
}
