/**
 * A cross-encoder as the ranking service's PassageReranker: one (query,
 * passage) pair per passage. A single-logit head (ms-marco style) scores by
 * its sigmoid; a multi-label head by the probability of its last label (the
 * "relevant" class of two-label rerankers).
 */
import type { Logger } from '../../core/logger.js';
import type { PassageReranker } from '../ranking/reranker.js';
import type { ModelHost } from './model-host.js';
import { softmax, type ScorePairs } from './pair-queue.js';

export function relevanceFromLogits(logits: ArrayLike<number>): number {
  if (logits.length === 1) return 1 / (1 + Math.exp(-logits[0]!));
  return softmax(logits).at(-1)!;
}

export function passageRerankerOf(
  host: ModelHost,
  scorePairs: ScorePairs,
  topK: number,
  logger: Pick<Logger, 'warn'>,
): PassageReranker {
  return {
    id: host.info.name,
    topK,
    async score(query, passages, signal) {
      try {
        const logits = await scorePairs(
          passages.map((passage) => [query, passage]),
          signal,
        );
        return logits.map(relevanceFromLogits);
      } catch (error) {
        if (signal?.aborted) throw error;
        // The worker died or timed out, the queue is full, the graph refused an input: this call keeps the offline
        // order.
        logger.warn({ err: error, model: host.info.name }, 'reranker failed: keeping the offline order');
        return null;
      }
    },
  };
}
