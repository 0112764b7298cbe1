/**
 * Near-duplicate pages: the same article syndicated under several URLs, a
 * print view, a mirror. Two texts are near duplicates when most of the
 * shorter one's word 5-grams ("shingles") also occur in the longer one:
 *
 *   containment(A, B) = |shingles(A) ∩ shingles(B)| / min(|shingles(A)|, |shingles(B)|)
 *
 * Containment rather than Jaccard, so a copy wrapped in more boilerplate, or
 * cut short, still counts. Texts of fewer than 20 words are never called
 * duplicates (too little to tell). Only a text's first MAX_READ_CHARS
 * characters are read: copies share their lead, and this runs on the event
 * loop for every page a search reads (a 1.5 MB page took a quarter second).
 */
import { fnv1a } from '../ranking/fnv1a.js';
import { words } from '../ranking/tokens.js';

export const MAX_READ_CHARS = 200_000;
const SHINGLE_WORDS = 5;
const MIN_WORDS = 20;
export const NEAR_DUPLICATE_CONTAINMENT = 0.8;

export type Shingles = Set<number>;

export function shingles(text: string): Shingles | null {
  const found = words(text.slice(0, MAX_READ_CHARS));
  if (found.length < MIN_WORDS) return null;
  const out: Shingles = new Set();
  for (let i = 0; i + SHINGLE_WORDS <= found.length; i++) out.add(fnv1a(found.slice(i, i + SHINGLE_WORDS).join(' ')));
  return out;
}

export function containment(a: Shingles, b: Shingles): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const item of small) if (large.has(item)) shared++;
  return shared / small.size;
}

/**
 * Keeps the first of every group of near-duplicate texts (callers pass them best first).
 * Returns, per input, the index of the kept text it duplicates, or -1 when it is kept.
 */
export function nearDuplicateOf(texts: string[], threshold = NEAR_DUPLICATE_CONTAINMENT): number[] {
  const kept: Array<{ index: number; shingles: Shingles }> = [];
  return texts.map((text, index) => {
    const own = shingles(text);
    if (!own) return -1;
    const match = kept.find((k) => containment(own, k.shingles) >= threshold);
    if (match) return match.index;
    kept.push({ index, shingles: own });
    return -1;
  });
}
