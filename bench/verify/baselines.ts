/**
 * The two baselines every run prints beside the pipeline: always the
 * majority label of the development half, and word overlap — the claim's
 * share of content words found in its best evidence sentence — with the
 * threshold that gives the best macro-F1 on the development half
 * (≥ threshold: true, else unverifiable; overlap cannot say false).
 */
import { lineOverlap } from '../../plugins/verify/claims/word-overlap.js';
import { LABELS3, type BenchClaim, type Label3 } from './dataset.js';
import { macroF1 } from './metrics.js';

export function wordOverlap(claim: BenchClaim): number {
  return overlapScore(
    claim.claim,
    claim.pages.flatMap((page) => page.sentences),
  );
}

/** The claim's share of content words found in its best sentence (the plugin's rule: one copy). */
export function overlapScore(claim: string, sentences: readonly string[]): number {
  return lineOverlap(claim, sentences).score;
}

export function majorityLabel(dev: BenchClaim[]): Label3 {
  const counts = new Map<Label3, number>();
  for (const c of dev) if (c.gold3) counts.set(c.gold3, (counts.get(c.gold3) ?? 0) + 1);
  return LABELS3.reduce((best, l) => ((counts.get(l) ?? 0) > (counts.get(best) ?? 0) ? l : best), LABELS3[0]!);
}

export function tuneOverlapThreshold(dev: BenchClaim[]): number {
  let best = { threshold: 0.5, f1: -1 };
  for (let t = 0.05; t <= 1.0001; t += 0.05) {
    const rows = dev
      .filter((c) => c.gold3)
      .map((c) => ({ gold: c.gold3!, predicted: (wordOverlap(c) >= t ? 'true' : 'unverifiable') as Label3 }));
    const f1 = macroF1(rows);
    if (f1 > best.f1) best = { threshold: Math.round(t * 100) / 100, f1 };
  }
  return best.threshold;
}
