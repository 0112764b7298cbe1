/**
 * An experimental claim-level decision: supported in full, in part, or not,
 * from the claim's features (verdict-features.ts) by a small multinomial
 * logistic model fitted by wice-fit.ts. Not in the product: cross-validated
 * on WiCE it does not beat the hand-set rules (docs/verify.md, "A learned
 * verdict"), so the rules (plugins/verify/claims/aggregate.ts) decide.
 */
import type { VerdictOutcome } from '../../plugins/verify/claims/aggregate.js';

export const SUPPORT_CLASSES = ['supported', 'partially_supported', 'not_supported'] as const;
export type SupportClass = (typeof SUPPORT_CLASSES)[number];

export interface VerdictWeights {
  /** Feature names, in the order of each row of `weights`. */
  features: readonly string[];
  /** Per feature, subtracted then divided by `scale` before weighing. */
  mean: readonly number[];
  scale: readonly number[];
  /** One row per class of SUPPORT_CLASSES. */
  weights: ReadonlyArray<readonly number[]>;
  bias: readonly number[];
}

/**
 * Whether the model would decide: not when evidence contradicts the claim (false and misleading
 * need conflicting evidence), nor when no sentence bears on any fact; the rules' verdict stands then.
 */
export function modelDecides(rules: VerdictOutcome): boolean {
  const contradicted = rules.verdict === 'false' || rules.verdict === 'misleading';
  return !contradicted && rules.facts.some((o) => o.evidence.length > 0);
}

/** Probability of each class of SUPPORT_CLASSES (softmax of the weighed, standardised features). */
export function classProbabilities(x: readonly number[], weights: VerdictWeights): number[] {
  const z = x.map((v, i) => (v - weights.mean[i]!) / (weights.scale[i]! || 1));
  const logits = weights.weights.map((row, k) => row.reduce((sum, w, i) => sum + w * z[i]!, weights.bias[k]!));
  const top = Math.max(...logits);
  const exp = logits.map((l) => Math.exp(l - top));
  const total = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / total);
}

export function supportClass(
  x: readonly number[],
  weights: VerdictWeights,
): { label: SupportClass; probability: number } {
  const p = classProbabilities(x, weights);
  const best = p.indexOf(Math.max(...p));
  return { label: SUPPORT_CLASSES[best]!, probability: p[best]! };
}
