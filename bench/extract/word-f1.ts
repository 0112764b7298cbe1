/**
 * Word-level F1 (WCXB and other recent benchmarks): lower-cased `\w+` tokens
 * as a multiset, precision = overlap / predicted, recall = overlap / reference,
 * F1 per page, averaged over pages. Both empty counts as a perfect page.
 */

const WORD = /[\p{L}\p{N}_]+/gu;

export interface WordScore {
  precision: number;
  recall: number;
  f1: number;
}

function bag(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function size(counts: Map<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

export function wordScore(reference: string, predicted: string): WordScore {
  const expected = bag(reference);
  const got = bag(predicted);
  const expectedSize = size(expected);
  const gotSize = size(got);
  if (expectedSize === 0 && gotSize === 0) return { precision: 1, recall: 1, f1: 1 };
  if (expectedSize === 0 || gotSize === 0)
    return { precision: gotSize === 0 ? 1 : 0, recall: expectedSize === 0 ? 1 : 0, f1: 0 };
  let overlap = 0;
  for (const [word, count] of got) overlap += Math.min(count, expected.get(word) ?? 0);
  const precision = overlap / gotSize;
  const recall = overlap / expectedSize;
  return { precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

export function meanWordScore(scores: WordScore[]): WordScore {
  const n = Math.max(1, scores.length);
  const sum = (pick: (score: WordScore) => number): number =>
    scores.reduce((total, score) => total + pick(score), 0) / n;
  return { precision: sum((s) => s.precision), recall: sum((s) => s.recall), f1: sum((s) => s.f1) };
}
