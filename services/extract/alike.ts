/**
 * Blocks built alike: same tag and first class. Many siblings built alike are the items of a list (a listing's
 * cards, a thread's posts, a news river's teasers); the content scorer and the river rule both count them so.
 */

/** Siblings built alike this many times are the items of a list. */
export const LIST_ITEMS = 5;

export function signature(element: Element): string {
  return `${element.localName}.${(element.getAttribute('class') ?? '').trim().split(/\s+/)[0] ?? ''}`;
}

export function alikeCounts(elements: Element[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const element of elements) counts.set(signature(element), (counts.get(signature(element)) ?? 0) + 1);
  return counts;
}
