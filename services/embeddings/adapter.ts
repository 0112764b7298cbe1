/** Bridges the Embedder to the chunker's EmbedTexts shape (plain number arrays). */
import type { EmbedTexts } from '../chunking/types.js';
import type { Embedder } from './types.js';

export function embedTextsAdapter(embedder: Embedder): EmbedTexts {
  return async (texts) => (await embedder.embed(texts)).map((vector) => Array.from(vector));
}
