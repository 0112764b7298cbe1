/**
 * A question's content terms weighted by how well they pick one page out of
 * the pages read together: ln(1 + N / (1 + pages holding the term)). The
 * subject every page repeats weighs little; the term only the answering page
 * holds weighs most. Two weightings read the same counts:
 *
 *   focus weights        the heaviest term present somewhere is the question's
 *                        focus and counts twice (what the question is about
 *                        among these pages); a term no page holds counts once, at
 *                        the lightest weight any term has. The sentence and page
 *                        scorers rank with these.
 *   distinctive weights  the terms that name what the question is about, its
 *                        framing words out (question-framing.ts); a term no page
 *                        holds weighs most, ln(1 + N), since no sentence can say
 *                        it. Whether the best sentence answers at all reads these
 *                        (answers/answer-choice.ts): a source that lacks the question's
 *                        own subject does not answer it.
 */
import { isFramingTerm } from './question-framing.js';
import { contentTerms } from './tokens.js';

export interface TermWeights {
  terms: string[];
  weights: number[];
  total: number;
}

/** The question's distinct content terms and how many of the pages hold each. */
export interface TermCounts {
  terms: string[];
  holding: number[];
  pages: number;
}

const FOCUS_FACTOR = 2;
/**
 * How much of each page the page-level weights read: the lead and body of any
 * ordinary page. They run on the event loop over every page read, so a
 * megabyte page must not be tokenised whole (test/e2e/event-loop-budget).
 */
export const PAGE_TEXT_CHARS = 50_000;

export function termCounts(question: string, pageTexts: readonly string[]): TermCounts {
  const terms = [...new Set(contentTerms(question))];
  const pages = pageTexts.map((text) => new Set(contentTerms(text.slice(0, PAGE_TEXT_CHARS))));
  return { terms, holding: terms.map((term) => pages.filter((page) => page.has(term)).length), pages: pages.length };
}

function rarity(holding: number, pages: number): number {
  return Math.log(1 + pages / (1 + holding));
}

function weighted(terms: string[], weights: number[]): TermWeights {
  return { terms, weights, total: weights.reduce((a, b) => a + b, 0) };
}

export function focusWeights({ terms, holding, pages }: TermCounts): TermWeights {
  const weights = holding.map((count) => (count === 0 ? 0 : rarity(count, pages)));
  // A term no page holds cannot tell pages apart; it still counts once, at the lightest weight any term has.
  const lightest = Math.min(...weights.filter((w) => w > 0), Math.log(2));
  for (let i = 0; i < weights.length; i++) if (weights[i] === 0) weights[i] = lightest;
  let focus = -1;
  for (let i = 0; i < terms.length; i++) if (holding[i]! > 0 && (focus < 0 || weights[i]! > weights[focus]!)) focus = i;
  if (focus >= 0) weights[focus] = weights[focus]! * FOCUS_FACTOR;
  return weighted(terms, weights);
}

export function distinctiveWeights({ terms, holding, pages }: TermCounts): TermWeights {
  const naming = terms.map((term) => !isFramingTerm(term));
  // A question of framing words only ("what is the main method used?") keeps them all.
  const kept = naming.some(Boolean) ? naming : terms.map(() => true);
  const indices = terms.map((_, i) => i).filter((i) => kept[i]);
  return weighted(
    indices.map((i) => terms[i]!),
    indices.map((i) => rarity(holding[i]!, pages)),
  );
}

/** Share of the weighted question terms a text holds, 0..1 (1 for a question without content terms). */
export function weightedShare(weights: TermWeights, text: string | Set<string>): number {
  if (weights.total === 0) return 1;
  const present = typeof text === 'string' ? new Set(contentTerms(text)) : text;
  let sum = 0;
  weights.terms.forEach((term, i) => (sum += present.has(term) ? weights.weights[i]! : 0));
  return sum / weights.total;
}
