/**
 * The two baselines every run prints beside the pipeline: always the
 * majority label of the development half, and word overlap — the claim's
 * share of content words found in its best evidence sentence — with the
 * threshold that gives the best macro-F1 on the development half
 * (≥ threshold: true, else unverifiable; overlap cannot say false).
 */
import { tokenize } from '../../services/ranking/tokens.js';
import { LABELS3, type BenchClaim, type Label3 } from './dataset.js';
import { macroF1 } from './metrics.js';

const STOP = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its no not ' +
    'of on or our so than that the their them then there these they this to was we were what when where which ' +
    'who will with you your'
  ).split(' '),
);

export function wordOverlap(claim: BenchClaim): number {
  return overlapScore(
    claim.claim,
    claim.pages.flatMap((page) => page.sentences),
  );
}

/** The claim's share of content words found in its best sentence. */
export function overlapScore(claim: string, sentences: readonly string[]): number {
  const words = new Set(tokenize(claim).filter((t) => !STOP.has(t)));
  if (words.size === 0) return 0;
  let best = 0;
  for (const sentence of sentences) {
    const present = new Set(tokenize(sentence));
    best = Math.max(best, [...words].filter((w) => present.has(w)).length / words.size);
  }
  return best;
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
