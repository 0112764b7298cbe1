/**
 * Fitting the experimental verdict model (verdict-model.ts): multinomial
 * logistic regression on standardised features, L2-regularised, each class
 * weighed by the inverse of its frequency so the rarest label counts as much
 * as the commonest (the figure is macro-F1). Full-batch gradient descent: the
 * loss is convex and the data a few hundred rows.
 */
import type { VerdictWeights } from './verdict-model.js';

export interface FitOptions {
  /** L2 penalty on the weights (not the biases), per row of data. */
  l2: number;
  iterations?: number;
  rate?: number;
}

/** `x`: one feature vector per row; `y`: class index per row; `classes`: how many. */
export function fitSoftmax(
  features: readonly string[],
  x: number[][],
  y: number[],
  classes: number,
  options: FitOptions,
): VerdictWeights {
  const n = x.length;
  const d = features.length;
  const mean = Array.from({ length: d }, (_, i) => x.reduce((s, r) => s + r[i]!, 0) / n);
  const scale = Array.from(
    { length: d },
    (_, i) => Math.sqrt(x.reduce((s, r) => s + (r[i]! - mean[i]!) ** 2, 0) / n) || 1,
  );
  const z = x.map((r) => r.map((v, i) => (v - mean[i]!) / scale[i]!));
  const counts = Array.from({ length: classes }, (_, k) => y.filter((c) => c === k).length);
  const rowWeight = y.map((c) => n / (classes * Math.max(1, counts[c]!)));
  const w = Array.from({ length: classes }, () => new Float64Array(d));
  const b = new Float64Array(classes);
  const rate = options.rate ?? 0.5;
  const logits = new Float64Array(classes);
  const gw = Array.from({ length: classes }, () => new Float64Array(d));
  const gb = new Float64Array(classes);
  for (let it = 0; it < (options.iterations ?? 3000); it++) {
    for (let k = 0; k < classes; k++) gw[k]!.fill(0), (gb[k] = 0);
    for (let r = 0; r < n; r++) {
      const row = z[r]!;
      let top = -Infinity;
      for (let k = 0; k < classes; k++) {
        let sum = b[k]!;
        for (let i = 0; i < d; i++) sum += w[k]![i]! * row[i]!;
        logits[k] = sum;
        top = Math.max(top, sum);
      }
      let total = 0;
      for (let k = 0; k < classes; k++) total += logits[k] = Math.exp(logits[k]! - top);
      for (let k = 0; k < classes; k++) {
        const err = rowWeight[r]! * (logits[k]! / total - (y[r] === k ? 1 : 0));
        gb[k]! += err;
        for (let i = 0; i < d; i++) gw[k]![i]! += err * row[i]!;
      }
    }
    for (let k = 0; k < classes; k++) {
      b[k]! -= (rate * gb[k]!) / n;
      for (let i = 0; i < d; i++) w[k]![i]! -= rate * (gw[k]![i]! / n + options.l2 * w[k]![i]!);
    }
  }
  const r4 = (v: number) => Math.round(v * 10000) / 10000;
  return {
    features: [...features],
    mean: mean.map(r4),
    scale: scale.map(r4),
    weights: w.map((row) => [...row].map(r4)),
    bias: [...b].map(r4),
  };
}
