/**
 * Confidence: the probability that the verdict is right, from the strength
 * behind it by Platt scaling, σ(a·strength + b), one (a, b) per verdict,
 * fitted on the development half of the benchmark (npm run bench:verify;
 * docs/verify.md, "Calibration"). Unverifiable answers say how close the
 * evidence came to settling the claim instead, capped low: a claim the
 * pages do not mention answers with a confidence near 0.
 */
import type { Verdict } from './aggregate.js';
import { roundConfidence as round } from '../../../core/rounding.js';

/**
 * Fitted by `npm run bench:verify -- --set climate-fever --direct --fit` (development half). true and
 * partially_true were refitted when the offline verdict became the word-overlap rule (strength: the share of the
 * claim's words in its best line; 141 and 454 answers). false and misleading, which the offline rule no longer
 * gives, keep the constants fitted on the stance rules' answers (misleading had 2: its smoothed accuracy).
 */
export const PLATT: Record<Exclude<Verdict, 'unverifiable'>, { a: number; b: number }> = {
  true: { a: 2.788, b: -1.579 },
  false: { a: 1.743, b: -1.046 },
  partially_true: { a: 0.256, b: -0.223 },
  misleading: { a: 0, b: -1.099 },
};
export const UNVERIFIABLE_CAP = 0.35;

export function calibratedConfidence(verdict: Verdict, strength: number, _judgedByModel: boolean): number {
  if (verdict === 'unverifiable') return round(UNVERIFIABLE_CAP * strength);
  const { a, b } = PLATT[verdict];
  return round(1 / (1 + Math.exp(-(a * strength + b))));
}
