/**
 * Drops captions whose text repeats an earlier caption of the content word
 * for word: galleries print a caption once per view (thumbnail, slide,
 * lightbox). A reader sees it once; an agent should get it once.
 */

const MIN_CHARS = 20;
/**
 * Captions only: body text repeats on purpose (a forum reply quoting a post,
 * an API field described per method, a recipe per day), and the benchmarks'
 * human annotators keep those repeats.
 */
const TEXT_BLOCKS = 'figcaption, [class*="caption"]';

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

export function removeRepeatedBlocks(container: Element): void {
  const seen = new Set<string>();
  for (const block of Array.from(container.querySelectorAll(TEXT_BLOCKS))) {
    if (!block.isConnected || block.querySelector(TEXT_BLOCKS)) continue;
    const text = normalise(block.textContent ?? '');
    if (text.length < MIN_CHARS) continue;
    if (seen.has(text)) block.remove();
    else seen.add(text);
  }
}
