/**
 * Drops the labels of buttons and widgets that sites write as plain text
 * inside the content ("Quick view", "+ Wishlist", "Reply", "Reaction score"):
 * controls and counters, not content. Only a block whose whole text is such a
 * label goes; a sentence that contains the words stays.
 */

const LABEL =
  /^(quick ?view|view options|quick ?view view options|add to (cart|bag|basket|wish ?list|compare)|\+ ?(wish ?list|compare)|compare|reply|quote|report|share|joined|reaction score|offline|online|original poster|load more|show more|see more|read more|view more)$/i;
const MAX_LABEL_CHARS = 32;
const LEAVES = 'p, div, span, li, a, label, dt, dd, small, strong, b';

export function removeInterfaceLabels(container: Element): void {
  for (const element of Array.from(container.querySelectorAll(LEAVES))) {
    if (!element.isConnected || element.firstElementChild?.matches('p, div, li, ul, ol, table')) continue;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length > 0 && text.length <= MAX_LABEL_CHARS && LABEL.test(text)) element.remove();
  }
}
