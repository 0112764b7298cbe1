/**
 * A deterministic bag-of-words embedding: words hashed into a fixed number of
 * signed buckets, L2-normalised. It stands in for a real embedding model
 * (benchmarks, tests) until the embedding layer exists; it sees shared
 * vocabulary, not meaning.
 */
import { fnv1a } from '../ranking/fnv1a.js';
import { isStopWord } from '../ranking/tokens.js';
import type { EmbedTexts } from './types.js';

export function hashingEmbedding(dimensions = 512): EmbedTexts {
  return async (texts) =>
    texts.map((text) => {
      const vector = new Array<number>(dimensions).fill(0);
      for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
        if (isStopWord(word)) continue;
        const hash = fnv1a(word);
        vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
      }
      const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
      return norm === 0 ? vector : vector.map((x) => x / norm);
    });
}
