/** Accuracy, macro-F1, confusion matrices and the calibration of confidence (ECE, reliability table, Platt fit). */
import { LABELS3, type Label3 } from './dataset.js';

/** A gold label and the label answered, on one label scale (Climate-FEVER's three, WiCE's three). */
export interface Scored<L extends string = Label3> {
  gold: L;
  predicted: L;
}

export function confusion<L extends string>(
  rows: Scored<L>[],
  labels: readonly L[] = LABELS3 as unknown as L[],
): Record<L, Record<L, number>> {
  const m = Object.fromEntries(labels.map((g) => [g, Object.fromEntries(labels.map((p) => [p, 0]))])) as Record<
    L,
    Record<L, number>
  >;
  for (const r of rows) m[r.gold][r.predicted]++;
  return m;
}

export function accuracy<L extends string>(rows: Scored<L>[]): number {
  return rows.length === 0 ? 0 : rows.filter((r) => r.gold === r.predicted).length / rows.length;
}

/** Share of each gold label answered as that label. */
export function recall<L extends string>(rows: Scored<L>[], label: L): number {
  const gold = rows.filter((r) => r.gold === label);
  return gold.length === 0 ? 0 : gold.filter((r) => r.predicted === label).length / gold.length;
}

export function macroF1<L extends string>(rows: Scored<L>[], labels: readonly L[] = LABELS3 as unknown as L[]): number {
  const f1s = labels.map((label) => {
    const tp = rows.filter((r) => r.gold === label && r.predicted === label).length;
    const fp = rows.filter((r) => r.gold !== label && r.predicted === label).length;
    const fn = rows.filter((r) => r.gold === label && r.predicted !== label).length;
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  });
  return f1s.reduce((a, b) => a + b, 0) / f1s.length;
}

export interface CalibrationRow {
  confidence: number;
  correct: boolean;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

export function reliability(rows: CalibrationRow[], bins = 10): { bins: ReliabilityBin[]; ece: number } {
  const out: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < bins; b++) {
    const from = b / bins;
    const to = (b + 1) / bins;
    const inBin = rows.filter(
      (r) => r.confidence >= from && (r.confidence < to || (b === bins - 1 && r.confidence <= 1)),
    );
    if (inBin.length === 0) continue;
    const meanConfidence = inBin.reduce((s, r) => s + r.confidence, 0) / inBin.length;
    const acc = inBin.filter((r) => r.correct).length / inBin.length;
    ece += (inBin.length / rows.length) * Math.abs(meanConfidence - acc);
    out.push({ from, to, count: inBin.length, meanConfidence, accuracy: acc });
  }
  return { bins: out, ece };
}

/** Platt scaling by gradient descent on log loss: P(correct) = σ(a·x + b). */
export function fitPlatt(points: Array<{ x: number; correct: boolean }>): { a: number; b: number } {
  let a = 1;
  let b = 0;
  if (points.length === 0) return { a, b };
  for (let iteration = 0; iteration < 5000; iteration++) {
    let ga = 0;
    let gb = 0;
    for (const p of points) {
      const q = 1 / (1 + Math.exp(-(a * p.x + b)));
      const error = q - (p.correct ? 1 : 0);
      ga += error * p.x;
      gb += error;
    }
    a -= (0.5 * ga) / points.length;
    b -= (0.5 * gb) / points.length;
  }
  return { a: Math.round(a * 1000) / 1000, b: Math.round(b * 1000) / 1000 };
}

export function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export function printConfusion<L extends string>(
  title: string,
  rows: Scored<L>[],
  labels: readonly L[] = LABELS3 as unknown as L[],
): void {
  const m = confusion(rows, labels);
  const width = Math.max(14, ...labels.map((l) => l.length + 2));
  console.log(`  ${title} (rows gold, columns predicted)`);
  console.log(`    ${''.padEnd(width)}${labels.map((l) => l.padStart(width)).join('')}`);
  for (const g of labels)
    console.log(`    ${g.padEnd(width)}${labels.map((p) => String(m[g][p]).padStart(width)).join('')}`);
}
