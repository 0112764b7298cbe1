/**
 * Drops text that is machine identifiers, not words: some shops (eBay) spell
 * "Sponsored" one letter per span between spans holding UUIDs that their CSS
 * hides. Left in, a block of UUIDs weighs as much as a paragraph of prose and
 * drags the scorer to the sponsored carousel.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function removeMachineText(root: Element): void {
  for (const span of Array.from(root.querySelectorAll('span'))) {
    if (span.firstElementChild) continue;
    const text = (span.textContent ?? '').trim();
    if (text.length === 36 && UUID.test(text)) span.remove();
  }
}
