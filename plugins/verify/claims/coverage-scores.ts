/**
 * How much of a claim the pages state, as the few numbers the offline
 * verdict (offline-verdict.ts) chooses between. All are general: they count
 * the claim's content terms (names weigh more) found in its best evidence
 * sentences and read no constant tuned on a benchmark, except `fact_grade`,
 * which lowers a fact's coverage by the share of its names no page mentions
 * (AGGREGATION.unmentionedNamePenalty).
 *
 *   best_sentence_overlap  unweighted share of the claim's terms in its best single sentence
 *                          (the word-overlap rule anyone can write in two lines)
 *   best_two_cover         weighted share the best two sentences hold together (ranking's term cover)
 *   fact_grade             mean over the claim's facts of what their evidence sentences hold of them
 *   cover_and_grade        the mean of the two above
 *   line_overlap           the two-line rule's score: unstemmed share of the claim's words in its best line of the
 *                          pages (word-overlap.ts), every line read
 */
import { coverTerms } from '../../../services/ranking/term-cover.js';
import { gradeOf } from './aggregate.js';
import type { TextAnalysis } from './analysis.js';
import type { FactReach } from './fact-parts.js';
import { roundConfidence as round } from '../../../core/rounding.js';

export const COVERAGE_SCORES = [
  'line_overlap',
  'best_sentence_overlap',
  'best_two_cover',
  'fact_grade',
  'cover_and_grade',
] as const;
export type CoverageScore = (typeof COVERAGE_SCORES)[number];

export function coverageScores(
  claim: TextAnalysis,
  sentences: readonly TextAnalysis[],
  reaches: readonly FactReach[],
  lineOverlap: number,
): Record<CoverageScore, number> {
  const tokenSets = sentences.map((s) => new Set(s.tokens));
  const bestTwo = coverTerms(claim.terms, tokenSets, 2).share;
  const grade = reaches.length === 0 ? 0 : reaches.reduce((sum, r) => sum + gradeOf(r), 0) / reaches.length;
  return {
    line_overlap: round(lineOverlap),
    best_sentence_overlap: round(bestSentenceOverlap([...claim.terms.keys()], tokenSets)),
    best_two_cover: round(bestTwo),
    fact_grade: round(grade),
    cover_and_grade: round((bestTwo + grade) / 2),
  };
}

function bestSentenceOverlap(terms: readonly string[], sentences: ReadonlyArray<ReadonlySet<string>>): number {
  if (terms.length === 0) return 0;
  let best = 0;
  for (const sentence of sentences) best = Math.max(best, terms.filter((t) => sentence.has(t)).length / terms.length);
  return best;
}
