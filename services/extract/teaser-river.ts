/**
 * A news river after a story: many teasers built alike (a headline link and a blurb each) holding about as much
 * prose as the story itself. Walking down from <body>, neither the story nor the river holds most of the page's
 * prose, so the walk stops above both and reads the river as the story's text. A river's blurbs are a list's prose,
 * not the page's own: the walk leaves them out of the share the story must hold. Only what follows the story counts
 * as its river: a category page's grid comes before its closing text, and there the grid is the content.
 */
import { LIST_ITEMS, signature } from './alike.js';
import type { ContentStats } from './content-stats.js';

/** Prose weight held by the largest group of items built alike inside `element`, each holding a link. */
function teaserCardsWeight(element: Element, stats: ContentStats): number {
  const groups = new Map<string, { last: Element | null; count: number; weight: number }>();
  for (const item of element.querySelectorAll('article, li, [class]')) {
    const key = signature(item);
    const group = groups.get(key) ?? { last: null, count: 0, weight: 0 };
    groups.set(key, group);
    // A card nested in a card built alike belongs to the outer one.
    if (group.last?.contains(item) || !item.querySelector('a[href]')) continue;
    group.last = item;
    group.count++;
    group.weight += stats.of(item).weight;
  }
  let largest = 0;
  for (const group of groups.values()) if (group.count >= LIST_ITEMS) largest = Math.max(largest, group.weight);
  return largest;
}

/** Prose weight of the teaser cards in the siblings after `story`. */
export function riverAfter(story: Element, stats: ContentStats): number {
  let weight = 0;
  for (let next = story.nextElementSibling; next; next = next.nextElementSibling)
    weight += teaserCardsWeight(next, stats);
  return weight;
}
