/**
 * Messages between the embedding service (main thread) and the embed worker.
 * Kept free of runtime imports so the worker and the service share only types.
 */
import type { EmbeddingModelSource } from './types.js';

/** One way to load a model: everything the worker sets on transformers.js's env before pipeline(). */
export interface ModelSpec {
  /** What pipeline() receives: a hub id (resolved against localModelPath / cache / hub) or an absolute folder. */
  model: string;
  /** The id reported by info(). */
  id: string;
  source: EmbeddingModelSource;
  /** Folder that local hub ids are resolved against; null disables local files. */
  localModelPath: string | null;
  allowRemote: boolean;
  remoteHost: string;
  /** transformers.js file cache (downloads land here); null disables it. */
  cacheDir: string | null;
}

export type EmbedTask = { kind: 'load'; spec: ModelSpec } | { kind: 'embed'; spec: ModelSpec; texts: string[] };

export interface LoadResult {
  dimensions: number;
}

export interface EmbedResult {
  dimensions: number;
  /** texts.length × dimensions, row-major (one flat array clones far cheaper than many). */
  data: Float32Array;
}
