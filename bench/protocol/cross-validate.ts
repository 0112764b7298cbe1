/**
 * Cross-validation of fitting procedures (docs/benchmarks.md, "Evaluation
 * protocol"). A procedure is what a contributor would otherwise do by hand:
 * given training items, choose its rule, thresholds, weights or features and
 * return a decision. Each fold is decided by what the procedure chose on the
 * other folds only; the figure is the mean over folds with its spread. A
 * system that fits nothing (a fixed product default) is a procedure that
 * ignores its training items.
 */
import { dealIntoFolds, type EvaluationSplit } from './folds.js';

export interface Procedure<T, P> {
  name: string;
  /** Everything chosen from `train` only; returns the decision for one item. */
  fit(train: readonly T[]): (item: T) => P;
}

/** Higher is better (macro-F1, a share answered right, …). */
export type Metric<T, P> = (items: readonly T[], predictions: readonly P[]) => number;

export interface FoldFigures {
  name: string;
  perFold: number[];
  mean: number;
  /** Sample standard deviation over folds. */
  spread: number;
  min: number;
  max: number;
}

export function summarise(name: string, perFold: number[]): FoldFigures {
  const mean = perFold.reduce((a, b) => a + b, 0) / Math.max(1, perFold.length);
  const variance = perFold.length < 2 ? 0 : perFold.reduce((s, v) => s + (v - mean) ** 2, 0) / (perFold.length - 1);
  return { name, perFold, mean, spread: Math.sqrt(variance), min: Math.min(...perFold), max: Math.max(...perFold) };
}

/** Each procedure's figure per fold, fitted on the other folds. */
export function crossValidate<T, P>(
  folds: readonly (readonly T[])[],
  procedures: readonly Procedure<T, P>[],
  metric: Metric<T, P>,
): FoldFigures[] {
  return procedures.map((procedure) => {
    const perFold = folds.map((test, f) => {
      const decide = procedure.fit(folds.filter((_, g) => g !== f).flat());
      return metric(test, test.map(decide));
    });
    return summarise(procedure.name, perFold);
  });
}

/** Each procedure fitted on every CV fold and scored once on the final fold. */
export function scoreFinalFold<T, P>(
  split: EvaluationSplit<T>,
  procedures: readonly Procedure<T, P>[],
  metric: Metric<T, P>,
): Array<{ name: string; figure: number }> {
  const train = split.folds.flat();
  return procedures.map((procedure) => {
    const decide = procedure.fit(train);
    return { name: procedure.name, figure: metric(split.final, split.final.map(decide)) };
  });
}

/**
 * Nested choice: the candidate with the best mean over inner folds of `train`
 * (its own items dealt again), so a hyper-parameter is chosen inside the
 * training folds like any other constant. Ties go to the earlier candidate (list the simplest first).
 */
export function chooseByInnerFolds<T, P>(
  train: readonly T[],
  candidates: readonly Procedure<T, P>[],
  metric: Metric<T, P>,
  idOf: (item: T) => string,
  options: { folds?: number; stratum?: (item: T) => string } = {},
): Procedure<T, P> {
  const inner = dealIntoFolds(train, idOf, options.folds ?? 4, options.stratum);
  const figures = crossValidate(inner, candidates, metric);
  let best = 0;
  figures.forEach((f, i) => {
    if (f.mean > figures[best]!.mean + 1e-9) best = i;
  });
  return candidates[best]!;
}
