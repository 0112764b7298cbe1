/**
 * Semantic chunking: sentences are embedded, and the text is split where the
 * cosine distance between neighbouring sentences is unusually high (above a
 * percentile of all neighbour distances); each part is then packed under the
 * token budget.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { mergeSpans, splitRecursive } from './recursive-splitter.js';
import { splitSentences, splitWords } from './segmenters.js';
import { countSpanTokens } from './tokenizer.js';
import type { EmbedTexts, MeasuredSpan, Span, TokenBudget } from './types.js';

const EMBED_BATCH = 128;

export async function semanticSpans(
  text: string,
  maxTokens: number,
  embed: EmbedTexts,
  breakpointPercentile: number,
): Promise<Span[]> {
  const budget: TokenBudget = { maxTokens, overlapTokens: 0 };
  const units = sentenceUnits(text, budget);
  if (units.length < 2) return mergeSpans(units, budget);
  const vectors = await embedAll(
    units.map((unit) => text.slice(unit.start, unit.end).trim()),
    embed,
  );
  const distances = units.slice(1).map((_, i) => cosineDistance(vectors[i]!, vectors[i + 1]!));
  const threshold = percentile(distances, breakpointPercentile);
  const chunks: Span[] = [];
  let group: MeasuredSpan[] = [units[0]!];
  distances.forEach((distance, i) => {
    if (distance > threshold) {
      for (const chunk of mergeSpans(group, budget)) chunks.push(chunk);
      group = [];
    }
    group.push(units[i + 1]!);
  });
  for (const chunk of mergeSpans(group, budget)) chunks.push(chunk);
  return chunks;
}

/** Sentences, each cut to fit the budget; whitespace-only pieces join the sentence before them. */
function sentenceUnits(text: string, budget: TokenBudget): MeasuredSpan[] {
  const units: MeasuredSpan[] = [];
  for (const sentence of splitSentences(text, { start: 0, end: text.length })) {
    const previous = units[units.length - 1];
    if (text.slice(sentence.start, sentence.end).trim() === '') {
      if (previous) previous.end = sentence.end;
      continue;
    }
    for (const piece of splitRecursive(text, sentence, [splitWords], budget)) {
      units.push({ ...piece, tokens: countSpanTokens(text, piece) });
    }
  }
  return units;
}

async function embedAll(texts: string[], embed: EmbedTexts): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let from = 0; from < texts.length; from += EMBED_BATCH) {
    const batch = texts.slice(from, from + EMBED_BATCH);
    let answer: unknown;
    try {
      answer = await embed(batch);
    } catch (error) {
      throw toAppError(error);
    }
    if (!Array.isArray(answer) || answer.length !== batch.length || !answer.every(isVector)) {
      throw new AppError(
        'INTERNAL',
        `The embedding model returned ${Array.isArray(answer) ? answer.length : 'no'} vectors for ${batch.length} sentences`,
      );
    }
    vectors.push(...(answer as number[][]));
  }
  return vectors;
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}

export function cosineDistance(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  if (normA === 0 || normB === 0) return 1; // nothing in common can be measured: treat as unrelated
  return 1 - dot / Math.sqrt(normA * normB);
}

/** Linear interpolation between closest ranks (numpy's default). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (rank - below) * (sorted[above]! - sorted[below]!);
}
