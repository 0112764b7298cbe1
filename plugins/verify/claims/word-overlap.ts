/**
 * The two-line rule every verdict here is measured against (Quarry issue 47):
 * the claim's share of content words found in the best single line of the
 * pages read. Unstemmed, unweighted, every line of every page (a line is what
 * the page puts on one line: a paragraph, a list item, a heading). One copy,
 * read by the offline verdict (offline-verdict.ts) and by the benchmarks'
 * baseline, so what ships and what it is measured against cannot drift apart.
 */
import { tokenize } from '../../../services/ranking/tokens.js';

/** Function words the rule does not count; a short list of its own (the rule's definition, not ranking's). */
const STOP = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its no not ' +
    'of on or our so than that the their them then there these they this to was we were what when where which ' +
    'who will with you your'
  ).split(' '),
);

export interface LineOverlap {
  /** Share of the claim's content words in its best line, 0..1. */
  score: number;
  /** That line (null when no line holds any of them). */
  line: string | null;
}

/** A page's text cut into its non-empty lines. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** The claim's content words, each once. */
export function claimWords(claim: string): string[] {
  return [...new Set(tokenize(claim).filter((t) => !STOP.has(t)))];
}

/** Share of `words` that `line` contains (0 when there are none). */
export function lineShare(words: readonly string[], line: string): number {
  if (words.length === 0) return 0;
  const present = new Set(tokenize(line));
  return words.filter((w) => present.has(w)).length / words.length;
}

export function lineOverlap(claim: string, lines: readonly string[]): LineOverlap {
  const words = claimWords(claim);
  let best: LineOverlap = { score: 0, line: null };
  for (const line of lines) {
    const score = lineShare(words, line);
    if (score > best.score) best = { score, line };
  }
  return best;
}
