/** Micro precision, recall and F1 of PER/ORG/LOC spans (exact type and extent); MISC is not scored. */
import type { SpanType, TokenSpan } from '../../services/entities/spans.js';

export const SCORED: readonly SpanType[] = ['PER', 'ORG', 'LOC'];

export interface Counts {
  truePositives: number;
  predicted: number;
  gold: number;
}

export interface Score {
  precision: number;
  recall: number;
  f1: number;
  counts: Counts;
}

export function emptyCounts(): Counts {
  return { truePositives: 0, predicted: 0, gold: 0 };
}

/** Adds one sentence's spans; `only` restricts to one type. */
export function count(
  into: Counts,
  gold: readonly TokenSpan[],
  predicted: readonly TokenSpan[],
  only?: SpanType,
): void {
  const keep = (s: TokenSpan) => (only ? s.type === only : SCORED.includes(s.type));
  const goldKeys = new Set(gold.filter(keep).map((s) => `${s.type}:${s.start}:${s.end}`));
  const predictedKeys = new Set(predicted.filter(keep).map((s) => `${s.type}:${s.start}:${s.end}`));
  into.gold += goldKeys.size;
  into.predicted += predictedKeys.size;
  for (const key of predictedKeys) if (goldKeys.has(key)) into.truePositives += 1;
}

export function score(counts: Counts): Score {
  const precision = counts.predicted === 0 ? 0 : counts.truePositives / counts.predicted;
  const recall = counts.gold === 0 ? 0 : counts.truePositives / counts.gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, counts };
}
