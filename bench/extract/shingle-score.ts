/**
 * The Zyte article-extraction benchmark's metric (its evaluate.py, restated in
 * /work/shared/notes/extraction-metric.md): 4-token shingles as multisets,
 * tp/fp/fn normalised per page so every page weighs the same, precision and
 * recall averaged over pages, F1 from the two means.
 */

/** Python's `\w+` on str: letters, digits (all numeric categories) and underscore. */
const WORD = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

export function tokens(text: string): string[] {
  return text.match(WORD) ?? [];
}

function shingles(text: string): Map<string, number> {
  const words = tokens(text);
  const counts = new Map<string, number>();
  // A text shorter than a shingle gives one shorter shingle; an empty text gives none.
  const last = Math.max(1, words.length - SHINGLE + 1);
  for (let i = 0; i < last; i++) {
    const shingle = words.slice(i, i + SHINGLE).join(' ');
    if (shingle) counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

export interface PageCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** Normalised tp, fp, fn of one page (they sum to 1, or are all 0 when both texts are empty). */
export function pageCounts(truth: string, predicted: string): PageCounts {
  const expected = shingles(truth);
  const got = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...expected.keys(), ...got.keys()])) {
    const t = expected.get(key) ?? 0;
    const p = got.get(key) ?? 0;
    tp += Math.min(t, p);
    fp += Math.max(0, p - t);
    fn += Math.max(0, t - p);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export interface ShingleScore {
  precision: number;
  recall: number;
  f1: number;
  /** Share of pages whose token list equals the truth's. */
  accuracy: number;
}

function pagePrecision({ tp, fp, fn }: PageCounts): number | null {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp > 0 ? tp / (tp + fp) : null;
}

function pageRecall({ tp, fp, fn }: PageCounts): number | null {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn > 0 ? tp / (tp + fn) : null;
}

function mean(values: Array<number | null>): number {
  const kept = values.filter((value): value is number => value !== null);
  return kept.length ? kept.reduce((sum, value) => sum + value, 0) / kept.length : 0;
}

export function shingleScore(pairs: Array<{ truth: string; predicted: string }>): ShingleScore {
  const counts = pairs.map(({ truth, predicted }) => pageCounts(truth, predicted));
  const precision = mean(counts.map(pagePrecision));
  const recall = mean(counts.map(pageRecall));
  const exact = pairs.filter(({ truth, predicted }) => tokens(truth).join(' ') === tokens(predicted).join(' ')).length;
  return {
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    accuracy: pairs.length ? exact / pairs.length : 0,
  };
}
