/**
 * Drops text that is machine text, not words:
 * - some shops (eBay) spell "Sponsored" one letter per span between spans
 *   holding UUIDs that their CSS hides. Left in, a block of UUIDs weighs as
 *   much as a paragraph of prose and drags the scorer to the sponsored carousel;
 * - program source read as text: a quote inside a script held in an attribute
 *   (Alpine's `x-data="{ … }"`) ends the attribute early, and the rest of the
 *   program is the element's text, kilobytes of it outweighing the article.
 *   Code a page shows is in <pre>/<code>; a text node outside them is prose.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a page shows code on purpose. */
const CODE_CONTAINERS = 'pre, code, kbd, samp, textarea, math, script, style, template';
/** A stretch of text this long is judged; shorter ones weigh too little to matter. */
const SOURCE_MIN_CHARS = 200;
/** Prose has no braces; a program has many. */
const SOURCE_MIN_BRACES = 8;
/** Share of a program's visible characters that are its punctuation: `{}()[];=`. */
const SOURCE_PUNCTUATION_SHARE = 0.05;

/** Whether a text reads as program source: many braces, dense punctuation. */
export function isProgramSource(text: string): boolean {
  if (text.length < SOURCE_MIN_CHARS) return false;
  const braces = text.match(/[{}]/g)?.length ?? 0;
  if (braces < SOURCE_MIN_BRACES) return false;
  const punctuation = text.match(/[{}()[\];=]/g)?.length ?? 0;
  const visible = text.replace(/\s+/g, '').length;
  return punctuation >= visible * SOURCE_PUNCTUATION_SHARE;
}

export function removeMachineText(root: Element): void {
  for (const span of Array.from(root.querySelectorAll('span'))) {
    if (span.firstElementChild) continue;
    const text = (span.textContent ?? '').trim();
    if (text.length === 36 && UUID.test(text)) span.remove();
  }
  const source: ChildNode[] = [];
  for (const element of root.querySelectorAll('*'))
    for (let node = element.firstChild; node; node = node.nextSibling)
      if (node.nodeType === TEXT_NODE && isProgramSource((node as Text).data) && !element.closest(CODE_CONTAINERS))
        source.push(node);
  for (const node of source) node.remove();
}
const TEXT_NODE = 3;
