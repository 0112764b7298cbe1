/** Accuracy, macro-F1, confusion matrices and the calibration of confidence (ECE, reliability table, Platt fit). */
import { LABELS3, type Label3 } from './dataset.js';

export interface Scored {
  gold: Label3;
  predicted: Label3;
}

export function confusion(rows: Scored[]): Record<Label3, Record<Label3, number>> {
  const m = Object.fromEntries(LABELS3.map((g) => [g, Object.fromEntries(LABELS3.map((p) => [p, 0]))])) as Record<Label3, Record<Label3, number>>;
  for (const r of rows) m[r.gold][r.predicted]++;
  return m;
}

export function accuracy(rows: Scored[]): number {
  return rows.length === 0 ? 0 : rows.filter((r) => r.gold === r.predicted).length / rows.length;
}

export function macroF1(rows: Scored[]): number {
  const f1s = LABELS3.map((label) => {
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
    const inBin = rows.filter((r) => r.confidence >= from && (r.confidence < to || (b === bins - 1 && r.confidence <= 1)));
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

export function printConfusion(title: string, rows: Scored[]): void {
  const m = confusion(rows);
  console.log(`  ${title} (rows gold, columns predicted)`);
  console.log(`    ${''.padEnd(14)}${LABELS3.map((l) => l.padStart(14)).join('')}`);
  for (const g of LABELS3) console.log(`    ${g.padEnd(14)}${LABELS3.map((p) => String(m[g][p]).padStart(14)).join('')}`);
}
