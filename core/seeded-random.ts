/**
 * Deterministic pseudo-random numbers (mulberry32): small, seedable and the
 * same on every machine, for whatever must draw the same way each run —
 * training order, benchmark samples, generated test cases.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `items` in place (Fisher–Yates) with the draws of `next`. */
export function shuffleInPlace<T>(items: T[], next: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
