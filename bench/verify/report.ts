/** Prints the pipeline's figures beside the baselines, per half, and the calibration of its confidence. */
import { majorityLabel, tuneOverlapThreshold, wordOverlap } from './baselines.js';
import { LABELS3, type BenchClaim, type Label3 } from './dataset.js';
import { accuracy, fitPlatt, macroF1, pct, printConfusion, reliability, type Scored } from './metrics.js';

export type Verdict5 = 'true' | 'false' | 'partially_true' | 'unverifiable' | 'misleading';

export interface Prediction {
  claim: BenchClaim;
  verdict: Verdict5;
  confidence: number;
  strength: number;
}

/**
 * partially_true (supported in part, nothing contradicted) counts as true; misleading (the claim as made is wrong) as
 * false.
 */
export function toLabel3(verdict: Verdict5): Label3 {
  return verdict === 'true' || verdict === 'partially_true'
    ? 'true'
    : verdict === 'false' || verdict === 'misleading'
      ? 'false'
      : 'unverifiable';
}

export function report(predictions: Prediction[], all: BenchClaim[], options: { fit: boolean }): void {
  const dev = all.filter((c) => c.split === 'dev');
  const majority = majorityLabel(dev);
  const threshold = tuneOverlapThreshold(dev);
  console.log(
    `Baselines: majority label of the development half = "${majority}"; word-overlap threshold tuned on it = ${threshold}\n`,
  );

  for (const split of ['dev', 'test', 'all'] as const) {
    const rows = predictions.filter((p) => p.claim.gold3 && (split === 'all' || p.claim.split === split));
    if (rows.length === 0) continue;
    const ours: Scored[] = rows.map((p) => ({ gold: p.claim.gold3!, predicted: toLabel3(p.verdict) }));
    const maj: Scored[] = rows.map((p) => ({ gold: p.claim.gold3!, predicted: majority }));
    const overlap: Scored[] = rows.map((p) => ({
      gold: p.claim.gold3!,
      predicted: wordOverlap(p.claim) >= threshold ? 'true' : 'unverifiable',
    }));
    console.log(
      `== ${split === 'dev' ? 'development half' : split === 'test' ? 'test half (held out)' : 'all claims'}: ${rows.length} claims (DISPUTED left out)`,
    );
    console.log(`  ${'system'.padEnd(28)}${'accuracy'.padStart(10)}${'macro-F1'.padStart(10)}`);
    for (const [name, scored] of [
      ['verify pipeline', ours],
      ['baseline: majority label', maj],
      [`baseline: word overlap ≥ ${threshold}`, overlap],
    ] as const) {
      console.log(
        `  ${name.padEnd(28)}${pct(accuracy(scored)).padStart(10)}${macroF1(scored).toFixed(3).padStart(10)}`,
      );
    }
    printConfusion('verify pipeline', ours);
    printConfusion('word overlap', overlap);
    console.log('');
  }

  console.log('Verdicts as answered (5 values) per gold label, all claims:');
  const verdicts: Verdict5[] = ['true', 'partially_true', 'misleading', 'false', 'unverifiable'];
  console.log(`  ${''.padEnd(16)}${verdicts.map((v) => v.padStart(15)).join('')}`);
  for (const gold of ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO', 'DISPUTED'] as const) {
    const rows = predictions.filter((p) => p.claim.gold === gold);
    console.log(
      `  ${gold.padEnd(16)}${verdicts.map((v) => String(rows.filter((p) => p.verdict === v).length).padStart(15)).join('')}`,
    );
  }

  console.log(
    '\nCalibration of confidence (decisive verdicts: true, partially_true, false, misleading; correct = maps ' +
      'onto the gold label):',
  );
  for (const split of ['dev', 'test'] as const) {
    const rows = predictions.filter((p) => p.claim.gold3 && p.claim.split === split && p.verdict !== 'unverifiable');
    const { bins, ece } = reliability(
      rows.map((p) => ({ confidence: p.confidence, correct: toLabel3(p.verdict) === p.claim.gold3 })),
    );
    console.log(
      `  ${split === 'dev' ? 'development' : 'test'} half: ${rows.length} decisive answers, ECE ${ece.toFixed(3)}`,
    );
    console.log(
      `    ${'confidence'.padEnd(12)}${'answers'.padStart(9)}${'mean conf.'.padStart(12)}${'accuracy'.padStart(10)}`,
    );
    for (const b of bins)
      console.log(
        `    ${`${b.from.toFixed(1)}–${b.to.toFixed(1)}`.padEnd(12)}${String(b.count).padStart(9)}${b.meanConfidence.toFixed(3).padStart(12)}${pct(b.accuracy).padStart(10)}`,
      );
  }
  const unverifiable = predictions.filter((p) => p.claim.gold3 && p.verdict === 'unverifiable');
  if (unverifiable.length > 0) {
    const right = unverifiable.filter((p) => p.claim.gold3 === 'unverifiable').length;
    console.log(
      `  unverifiable answers: ${unverifiable.length}, right ${pct(right / unverifiable.length)}, mean confidence ${(unverifiable.reduce((s, p) => s + p.confidence, 0) / unverifiable.length).toFixed(3)} (not a probability of being right: see docs/verify.md)`,
    );
  }

  if (options.fit) {
    console.log(
      '\nPlatt fit on the development half (strength → P(correct)), for plugins/verify/claims/confidence.ts:',
    );
    for (const verdict of ['true', 'false', 'partially_true', 'misleading'] as const) {
      const points = predictions
        .filter((p) => p.claim.gold3 && p.claim.split === 'dev' && p.verdict === verdict)
        .map((p) => ({ x: p.strength, correct: toLabel3(p.verdict) === p.claim.gold3 }));
      // Too few answers to fit a slope: the verdict's smoothed accuracy, as a constant.
      const fitted =
        points.length >= 30
          ? fitPlatt(points)
          : {
              a: 0,
              b:
                Math.round(
                  Math.log(
                    (points.filter((p) => p.correct).length + 1) / (points.filter((p) => !p.correct).length + 1),
                  ) * 1000,
                ) / 1000,
            };
      console.log(`  ${verdict}: ${JSON.stringify(fitted)} from ${points.length} answers`);
    }
  }
  void LABELS3;
}
