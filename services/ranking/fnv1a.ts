/**
 * FNV-1a, 32 bits, over a string's UTF-16 code units: the one small, stable hash that turns words and shingles into
 * numbers (the hashing embedding's buckets, near-duplicate shingles). Not for security.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
