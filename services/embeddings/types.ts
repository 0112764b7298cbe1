/**
 * The embedding interface every area uses. Vectors are unit-normalised, so
 * cosine similarity is a dot product.
 */

export type EmbeddingModelSource =
  /** A folder given in the config. */
  | 'local-path'
  /** Found in the model cache (downloaded earlier). */
  | 'cache'
  /** Downloaded from the hub (or its configured mirror) on this start. */
  | 'hub'
  /** The offline static model built at install time from GloVe vectors. */
  | 'embedded';

export interface EmbeddingModelInfo {
  /** Hub id or folder name, e.g. "Xenova/all-MiniLM-L6-v2" or "quarry/glove-static-100d". */
  id: string;
  source: EmbeddingModelSource;
  dimensions: number;
  /** Why a configured model was not used, when the service fell back to the embedded one. */
  fallbackReason?: string;
}

export interface Embedder {
  /** One unit-length vector per text, in order. Throws OVERLOADED when the queue is full. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  info(): EmbeddingModelInfo;
  close(): Promise<void>;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
