/**
 * Messages between the model services (main thread) and the models worker
 * (workers/models.worker.ts). Types only, so the two share no runtime code.
 */
import type { ModelSpec } from '../embeddings/worker-protocol.js';

/** What the model's head outputs: a label per token (entities) or per text pair (stance, reranking). */
export type ModelHead = 'token' | 'pair';

export type ModelTask =
  | { kind: 'load'; spec: ModelSpec; head: ModelHead }
  /** Entities of one text: sentences tagged by the model in batches of batchSize, then the entity analysis. */
  | { kind: 'entities'; spec: ModelSpec; text: string; batchSize: number }
  /** Logits of each (first, second) pair: (evidence, claim) for stance, (query, passage) for reranking. */
  | { kind: 'pairs'; spec: ModelSpec; pairs: Array<[string, string]> };

export interface LoadResult {
  /** config.json id2label, in label-id order. */
  labels: string[];
  /** The worker process that holds the model (tests check it is not the caller's). */
  pid: number;
}

export interface PairsResult {
  labels: number;
  /** pairs.length × labels logits, row-major. */
  logits: Float32Array;
  pid: number;
}
