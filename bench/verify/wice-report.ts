/**
 * WiCE figures: three-class macro-F1, per-class recall and the 3×3 confusion
 * of the pipeline beside the majority label and word overlap with two
 * thresholds (≥ high: supported, ≥ low: partially, else not), both fitted on
 * the split they are scored on — and the held-out half, scored with what was
 * fitted on the other half. Verdicts map as true → supported, partially_true →
 * partially_supported, false / misleading / unverifiable → not_supported.
 */
import { overlapScore } from './baselines.js';
import type { EndpointAnswer } from './endpoint.js';
import { accuracy, macroF1, pct, printConfusion, recall, type Scored } from './metrics.js';
import type { Verdict5 } from './report.js';
import { WICE_LABELS, type WiceClaim, type WiceLabel } from './wice-dataset.js';

export function toWiceLabel(verdict: Verdict5): WiceLabel {
  return verdict === 'true' ? 'supported' : verdict === 'partially_true' ? 'partially_supported' : 'not_supported';
}

export interface Overlap {
  low: number;
  high: number;
}

export function byOverlap(score: number, t: Overlap): WiceLabel {
  return score >= t.high ? 'supported' : score >= t.low ? 'partially_supported' : 'not_supported';
}

export function fitOverlap(rows: Array<{ gold: WiceLabel; score: number }>): Overlap {
  let best = { t: { low: 0, high: 0 }, f1: -1 };
  for (let low = 0; low <= 100; low += 5)
    for (let high = low; high <= 100; high += 5) {
      const t = { low: low / 100, high: high / 100 };
      const f1 = macroF1(
        rows.map((r) => ({ gold: r.gold, predicted: byOverlap(r.score, t) })),
        WICE_LABELS,
      );
      if (f1 > best.f1) best = { t, f1 };
    }
  return best.t;
}

function majority(claims: WiceClaim[]): WiceLabel {
  return WICE_LABELS.reduce((a, b) =>
    claims.filter((c) => c.gold === b).length > claims.filter((c) => c.gold === a).length ? b : a,
  );
}

function line(name: string, rows: Scored<WiceLabel>[]): string {
  const recalls = WICE_LABELS.map((l) => recall(rows, l).toFixed(2).padStart(10)).join('');
  return `  ${name.padEnd(36)}${macroF1(rows, WICE_LABELS).toFixed(3).padStart(10)}${pct(accuracy(rows)).padStart(10)}${recalls}`;
}

/** Whether a supporting snippet answered is one of the lines annotators marked as supporting. */
function rightEvidence(claim: WiceClaim, answer: EndpointAnswer): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const gold = [...claim.supporting].map((i) => norm(claim.lines[i] ?? '')).filter((l) => l.length > 0);
  return answer.supporting.some((snippet) => gold.some((g) => g.includes(norm(snippet)) || norm(snippet).includes(g)));
}

export function reportWice(claims: WiceClaim[], answers: EndpointAnswer[]): void {
  const scores = claims.map((c) => overlapScore(c.claim, c.lines));
  const rowsOf = (pick: (c: WiceClaim) => boolean) => claims.map((c, i) => ({ c, i })).filter(({ c }) => pick(c));
  const fitHalf = rowsOf((c) => c.half === 'fit');
  const fittedOnHalf = fitOverlap(fitHalf.map(({ c, i }) => ({ gold: c.gold, score: scores[i]! })));
  const majorityOfHalf = majority(fitHalf.map(({ c }) => c));
  const splits = [
    { title: 'all 349 claims (baselines fitted on all of them)', rows: rowsOf(() => true), fitted: null },
    { title: 'fit half (even positions; baselines fitted on it)', rows: fitHalf, fitted: null },
    {
      title: 'held-out half (odd positions; baselines fitted on the fit half)',
      rows: rowsOf((c) => c.half === 'held_out'),
      fitted: { t: fittedOnHalf, majority: majorityOfHalf },
    },
  ];
  for (const split of splits) {
    const t = split.fitted?.t ?? fitOverlap(split.rows.map(({ c, i }) => ({ gold: c.gold, score: scores[i]! })));
    const maj = split.fitted?.majority ?? majority(split.rows.map(({ c }) => c));
    const ours = split.rows.map(({ c, i }) => ({ gold: c.gold, predicted: toWiceLabel(answers[i]!.verdict) }));
    const overlap = split.rows.map(({ c, i }) => ({ gold: c.gold, predicted: byOverlap(scores[i]!, t) }));
    const majority_ = split.rows.map(({ c }) => ({ gold: c.gold, predicted: maj }));
    console.log(`== WiCE ${split.title}: ${split.rows.length} claims`);
    console.log(
      `  ${'system'.padEnd(36)}${'macro-F1'.padStart(10)}${'accuracy'.padStart(10)}${WICE_LABELS.map((l) => `R(${l.split('_')[0]})`.padStart(10)).join('')}`,
    );
    console.log(line('verify pipeline', ours));
    console.log(line(`baseline: majority (${maj})`, majority_));
    console.log(line(`baseline: word overlap ≥ ${t.low} / ≥ ${t.high}`, overlap));
    const [f, o] = [macroF1(ours, WICE_LABELS), macroF1(overlap, WICE_LABELS)];
    console.log(
      `  pipeline − overlap: ${(f - o >= 0 ? '+' : '') + (f - o).toFixed(3)} macro-F1 (ratio ${(f / o).toFixed(2)}); pipeline / majority: ${(f / macroF1(majority_, WICE_LABELS)).toFixed(2)}`,
    );
    printConfusion('verify pipeline', ours, WICE_LABELS);
    printConfusion('word overlap', overlap, WICE_LABELS);
    console.log('');
  }
  const verdicts: Verdict5[] = ['true', 'partially_true', 'misleading', 'false', 'unverifiable'];
  console.log('Verdicts as answered (5 values) per gold label, all claims:');
  console.log(`  ${''.padEnd(22)}${verdicts.map((v) => v.padStart(15)).join('')}`);
  for (const gold of WICE_LABELS)
    console.log(
      `  ${gold.padEnd(22)}${verdicts.map((v) => String(claims.filter((c, i) => c.gold === gold && answers[i]!.verdict === v).length).padStart(15)).join('')}`,
    );
  const withGold = claims
    .map((c, i) => ({ c, a: answers[i]! }))
    .filter(({ c, a }) => c.supporting.size > 0 && a.supporting.length > 0);
  const right = withGold.filter(({ c, a }) => rightEvidence(c, a)).length;
  console.log(
    `\nEvidence: of ${withGold.length} claims with annotated supporting lines and supporting evidence answered, ${right} (${pct(right / Math.max(1, withGold.length))}) include an annotated line\n`,
  );
}
