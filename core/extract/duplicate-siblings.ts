/**
 * Drops the second and later copies of a block whose siblings hold the very
 * same text. Responsive sites render a page once per breakpoint (Framer's
 * "ssr-variant"s, Webflow's desktop and mobile sections) and let CSS show
 * one; without the CSS every copy counts, which doubles the text and splits
 * the prose so that no single copy looks like the content.
 */
import type { ContentStats } from './content-stats.js';

/** Only blocks this long: short repeats ("Read more", a price) are often meant. */
const MIN_CHARS = 200;
/** Containers only: a paragraph or quotation said twice on purpose (a forum quote, a repeated notice) stays. */
const CONTAINERS = new Set(['div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'ul', 'ol', 'li', 'dl', 'table', 'figure', 'form', 'details']);

const normalized = (element: Element): string => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

export function removeDuplicateSiblings(element: Element, stats: ContentStats): void {
  // Copies have the same number of visible characters; only those are read and compared.
  const byChars = new Map<number, Element[]>();
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    const chars = stats.of(child).chars;
    if (chars < MIN_CHARS || !CONTAINERS.has(child.localName)) continue;
    const group = byChars.get(chars);
    if (group) group.push(child);
    else byChars.set(chars, [child]);
  }
  for (const group of byChars.values()) {
    if (group.length < 2) continue;
    const seen = new Set<string>();
    for (const child of group) {
      const text = normalized(child);
      if (seen.has(text)) child.remove();
      else seen.add(text);
    }
  }
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (stats.of(child).chars >= MIN_CHARS) removeDuplicateSiblings(child, stats);
  }
}
