/**
 * Content a page keeps hidden until its scripts run: React streaming puts the
 * article in `<div hidden id="S:0">`, anti-flicker snippets set
 * `visibility:hidden` on the whole page, and forum software (Discourse,
 * Flarum) serves its posts inside <noscript> for clients without JavaScript.
 * A browser with scripts shows that content, so an element hidden this way
 * is unhidden when it holds a large share of the page's prose and the
 * visible page holds next to none. Otherwise hidden things (menus, modals,
 * collapsed tabs, a hidden second copy of the text) stay hidden.
 */
import { isHidden } from './block-text.js';
import { ContentStats } from './content-stats.js';

/** Share of the page's plain text (hidden parts counted) that marks a hidden element as the content. */
const REVEAL_SHARE = 0.3;
/** The visible page holds at most this much plain text relative to the hidden element. */
const VISIBLE_AT_MOST = 0.2;
const HIDDEN_STYLE_RULE = /(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*;?/gi;

function unhide(element: Element): Element {
  element.removeAttribute('hidden');
  if (element.getAttribute('aria-hidden') === 'true') element.removeAttribute('aria-hidden');
  const style = element.getAttribute('style');
  if (style !== null) element.setAttribute('style', style.replace(HIDDEN_STYLE_RULE, ''));
  if (element.localName !== 'noscript') return element;
  const replacement = element.ownerDocument.createElement('div');
  while (element.firstChild) replacement.appendChild(element.firstChild);
  element.replaceWith(replacement);
  return replacement;
}

function concealed(element: Element): boolean {
  return element.localName === 'noscript' || isHidden(element);
}

/** Text outside links: a hidden mega-menu is all links and is never the content. */
const plainChars = (stats: ContentStats, element: Element): number =>
  stats.of(element).chars - stats.of(element).linkChars;

/** Plain text inside the outermost hidden elements and <noscript> blocks (measured by `stats`, which counts them). */
function concealedChars(element: Element, stats: ContentStats): number {
  let total = 0;
  for (const child of Array.from(element.children)) {
    const chars = plainChars(stats, child);
    if (chars <= 0) continue;
    total += concealed(child) ? chars : concealedChars(child, stats);
  }
  return total;
}

/**
 * Unhides, in place, hidden elements and <noscript> blocks holding most of the page's text when the visible page has
 * next to none.
 */
export function revealScriptedContent(root: Element): void {
  const stats = new ContentStats(root, { countHidden: true });
  const needed = plainChars(stats, root) * REVEAL_SHARE;
  if (needed <= 0) return;
  const visible = plainChars(stats, root) - concealedChars(root, stats);
  if (visible > plainChars(stats, root) * VISIBLE_AT_MOST) return;
  const visit = (element: Element): void => {
    for (const child of Array.from(element.children)) {
      const chars = plainChars(stats, child);
      if (chars < needed) continue;
      if (!concealed(child)) visit(child);
      else if (visible <= chars * VISIBLE_AT_MOST) visit(unhide(child));
    }
  };
  visit(root);
}
