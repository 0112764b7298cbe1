/**
 * A configured token-classification model (B-/I- PER, ORG, LOC, MISC) in
 * place of the offline perceptron: it tags the words, and the same analysis
 * (analyze.ts) folds its mentions into entities and relations. Implemented by
 * services/models, chosen at the composition root.
 */
import type { Extraction } from './types.js';

export interface TokenClassifier {
  /** The model's hub id or folder name, reported as model_used. */
  readonly id: string;
  extract(text: string, signal?: AbortSignal): Promise<Extraction>;
}
