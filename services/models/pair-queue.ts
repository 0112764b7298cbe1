/**
 * Text pairs to a loaded pair model (stance, reranking): batched and
 * coalesced across callers by the embedding service's BatchQueue, at most
 * one batch in flight per worker process. Each pair yields its logits.
 */
import { AppError } from '../../core/errors.js';
import { BatchQueue } from '../embeddings/batch-queue.js';
import type { ModelHost } from './model-host.js';
import type { PairsResult } from './protocol.js';

export type ScorePairs = (pairs: Array<[string, string]>, signal?: AbortSignal) => Promise<Float32Array[]>;

export function pairQueue(
  host: ModelHost,
  options: { batchSize: number; threads: number },
): { scorePairs: ScorePairs; close(): void } {
  const queue = new BatchQueue<[string, string], Float32Array>(
    async (pairs) => {
      const { labels, logits } = await host.run<PairsResult>({ kind: 'pairs', spec: host.spec, pairs });
      return pairs.map((_, i) => logits.slice(i * labels, (i + 1) * labels));
    },
    {
      batchSize: options.batchSize,
      maxQueuedTexts: 256 * options.batchSize,
      concurrency: options.threads,
      label: `${host.info.kind} model`,
    },
  );
  return {
    scorePairs: (pairs, signal) => queue.submit(pairs, signal),
    close: () => queue.rejectAll(new AppError('CANCELLED', `the ${host.info.kind} model was closed`)),
  };
}

export function softmax(logits: ArrayLike<number>): number[] {
  const values = Array.from(logits);
  const max = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
