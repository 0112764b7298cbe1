/**
 * Drops copies of a block that its siblings already hold. Responsive sites
 * render a page once per breakpoint (Framer's "ssr-variant"s, Webflow's
 * desktop and mobile sections, a tabbed and an untabbed version of a guide)
 * and let CSS show one; without the CSS every copy counts, which doubles the
 * text and splits the prose so that no single copy looks like the content.
 * Exact copies go; so does a long section whose words a sibling of about the
 * same size holds (the copies may differ by a title or a table of contents).
 */
import type { ContentStats } from './content-stats.js';
import { words } from '../ranking/tokens.js';

/** Only blocks this long: short repeats ("Read more", a price) are often meant. */
const MIN_CHARS = 200;
/** Containers only: a paragraph or quotation said twice on purpose (a forum quote, a repeated notice) stays. */
const CONTAINERS = new Set([
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'ul',
  'ol',
  'li',
  'dl',
  'table',
  'figure',
  'form',
  'details',
]);

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
  removeNearCopies(element, stats);
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (stats.of(child).chars >= MIN_CHARS) removeDuplicateSiblings(child, stats);
  }
}

/** A long block (a whole section) is a copy of a sibling that holds all of its text and little more. */
const NEAR_COPY_MIN_CHARS = 1000;
const NEAR_COPY_SHARE = 0.95;

function removeNearCopies(element: Element, stats: ContentStats): void {
  const blocks: Element[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (stats.of(child).chars >= NEAR_COPY_MIN_CHARS && CONTAINERS.has(child.localName)) blocks.push(child);
  }
  if (blocks.length < 2) return;
  blocks.sort((a, b) => stats.of(b).chars - stats.of(a).chars);
  const bags = new Map<Element, Map<string, number>>();
  const bagOf = (block: Element): Map<string, number> => {
    let bag = bags.get(block);
    if (bag === undefined) bags.set(block, (bag = wordBag(block)));
    return bag;
  };
  const kept: Element[] = [];
  for (const block of blocks) {
    const chars = stats.of(block).chars;
    const copy = kept.some(
      (fuller) =>
        chars >= stats.of(fuller).chars * NEAR_COPY_SHARE &&
        containedShare(bagOf(block), bagOf(fuller)) >= NEAR_COPY_SHARE,
    );
    if (copy) block.remove();
    else kept.push(block);
  }
}

function wordBag(element: Element): Map<string, number> {
  const bag = new Map<string, number>();
  for (const word of words(element.textContent ?? '')) bag.set(word, (bag.get(word) ?? 0) + 1);
  return bag;
}

/** Share of `part`'s words (counted with repeats) that `whole` holds too. */
function containedShare(part: Map<string, number>, whole: Map<string, number>): number {
  let total = 0;
  let shared = 0;
  for (const [word, count] of part) {
    total += count;
    shared += Math.min(count, whole.get(word) ?? 0);
  }
  return total === 0 ? 0 : shared / total;
}
