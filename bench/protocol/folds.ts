/**
 * Which fold each item of a shared evaluation set belongs to (docs/benchmarks.md,
 * "Evaluation protocol"). The rule is fixed and reads nothing but the item's
 * id, so no one can move an awkward claim or question out of the figure:
 *
 *   final fold   sha256("final:" + id) modulo FINAL_EVERY is 0 — about one item
 *                in six, set aside; scored once per change, never used to choose;
 *   CV folds     the rest, within each stratum (the gold label, where there is
 *                one) ordered by sha256("fold:" + id) and dealt round-robin into
 *                FOLDS folds, so each fold holds every class in its share.
 */
import { createHash } from 'node:crypto';

export const FOLDS = 5;
export const FINAL_EVERY = 6;

export interface EvaluationSplit<T> {
  /** FOLDS disjoint folds of the items outside the final fold. */
  folds: T[][];
  /** Set aside: scored with what was fitted on all folds, only when asked for (--final). */
  final: T[];
}

export interface SplitOptions<T> {
  folds?: number;
  /** Items of one stratum are spread evenly over the folds (a gold label). */
  stratum?: (item: T) => string;
}

/** A stable number from a string: the first 48 bits of its sha256. */
export function stableHash(text: string): number {
  return Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 12), 16);
}

export function inFinalFold(id: string): boolean {
  return stableHash(`final:${id}`) % FINAL_EVERY === 0;
}

export function splitForEvaluation<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  options: SplitOptions<T> = {},
): EvaluationSplit<T> {
  const count = options.folds ?? FOLDS;
  const final = items.filter((item) => inFinalFold(idOf(item)));
  const rest = items.filter((item) => !inFinalFold(idOf(item)));
  return { folds: dealIntoFolds(rest, idOf, count, options.stratum), final };
}

/** The items dealt into `count` folds, each stratum in hash order (also for inner folds of a training set). */
export function dealIntoFolds<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  count: number,
  stratum?: (item: T) => string,
): T[][] {
  const folds: T[][] = Array.from({ length: count }, () => []);
  const strata = new Map<string, T[]>();
  for (const item of items) {
    const key = stratum ? stratum(item) : '';
    strata.set(key, [...(strata.get(key) ?? []), item]);
  }
  let next = 0;
  for (const key of [...strata.keys()].sort()) {
    const ordered = strata
      .get(key)!
      .map((item) => ({ item, h: stableHash(`fold:${idOf(item)}`) }))
      .sort((a, b) => a.h - b.h);
    // Each stratum continues where the last stopped, so small folds do not all get the leftovers.
    for (const { item } of ordered) folds[next++ % count]!.push(item);
  }
  return folds;
}
