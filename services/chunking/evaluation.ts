/**
 * Embedding-free chunk quality against gold excerpts (Chroma's chunking
 * evaluation questions): how well chunk boundaries respect the passages a
 * question needs. Offsets are code points, like chunk offsets.
 */
import type { Chunk } from './types.js';

export interface GoldExcerpt {
  start: number;
  end: number;
  tokens: number;
}

export interface QuestionScore {
  /** Share of the question's excerpts that lie whole inside a single chunk. */
  recall: number;
  /** Excerpt tokens / tokens of the fewest chunks that cover the excerpts (1 = chunks are exactly the excerpts). */
  iou: number;
}

/** Index of the last chunk starting at or before `offset`, or -1. */
function lastStartingAtOrBefore(chunks: Chunk[], offset: number): number {
  let low = 0;
  let high = chunks.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (chunks[middle]!.start <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * Chunks must be in order with increasing ends (what chunkText returns), so
 * the last chunk starting at or before a point reaches furthest past it.
 */
export function scoreQuestion(chunks: Chunk[], excerpts: GoldExcerpt[]): QuestionScore {
  const used = new Set<number>();
  let contained = 0;
  for (const excerpt of excerpts) {
    const first = lastStartingAtOrBefore(chunks, excerpt.start);
    if (first >= 0 && chunks[first]!.end >= excerpt.end) contained++;
    // Greedy interval cover; gaps between chunks (trimmed whitespace) are stepped over.
    let position = excerpt.start;
    while (position < excerpt.end) {
      const index = lastStartingAtOrBefore(chunks, position);
      if (index >= 0 && chunks[index]!.end > position) {
        used.add(index);
        position = chunks[index]!.end;
        continue;
      }
      const next = chunks[index + 1];
      if (next === undefined) break;
      position = next.start;
    }
  }
  const excerptTokens = excerpts.reduce((sum, excerpt) => sum + excerpt.tokens, 0);
  const chunkTokens = [...used].reduce((sum, index) => sum + chunks[index]!.tokens, 0);
  return {
    recall: excerpts.length === 0 ? 1 : contained / excerpts.length,
    iou: chunkTokens === 0 ? 0 : Math.min(1, excerptTokens / chunkTokens),
  };
}
