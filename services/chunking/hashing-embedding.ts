/**
 * A deterministic bag-of-words embedding: words hashed into a fixed number of
 * signed buckets, L2-normalised. It stands in for a real embedding model
 * (benchmarks, tests) until the embedding layer exists; it sees shared
 * vocabulary, not meaning.
 */
import type { EmbedTexts } from './types.js';

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have he her his i in is it its of on or our she that the their them they this to was we were which will with you your not no so if than then there these those been can do did'.split(' '),
);

function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function hashingEmbedding(dimensions = 512): EmbedTexts {
  return async (texts) =>
    texts.map((text) => {
      const vector = new Array<number>(dimensions).fill(0);
      for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
        if (STOP_WORDS.has(word)) continue;
        const hash = fnv1a(word);
        vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
      }
      const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
      return norm === 0 ? vector : vector.map((x) => x / norm);
    });
}
