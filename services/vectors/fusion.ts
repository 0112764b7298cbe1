/**
 * Scores in [0, 1] for the three search modes, and the hybrid fusion.
 *
 * Hybrid uses reciprocal rank fusion (RRF, k = 60) rather than a blend of raw
 * scores: BM25 scores are unbounded and their scale depends on the corpus and
 * the query, so any fixed weight against cosine similarity would be right for
 * some queries and wrong for others; ranks have the same meaning in both lists.
 */

export const RRF_K = 60;

/** LanceDB's cosine distance is 1 − cos θ, in [0, 2]; opposite vectors count as 0, not negative. */
export function cosineScore(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

/**
 * BM25 → [0, 1) by s / (s + 1): monotonic, so the order is unchanged, and unlike dividing by the
 * best score it does not call the top hit of a weak match "1.0".
 */
export function textScore(bm25: number): number {
  return bm25 > 0 ? bm25 / (bm25 + 1) : 0;
}

/**
 * Fuses ranked lists of keys (best first). A key's score is Σ 1/(k + rank) over the lists, divided
 * by the best possible (rank 1 in every list), so 1.0 means first in both and a hit found by one
 * list only scores at most 0.5. Ties keep the first list's order.
 */
export function reciprocalRankFusion(lists: string[][], k = RRF_K): Map<string, number> {
  const sums = new Map<string, number>();
  for (const list of lists) {
    list.forEach((key, index) => sums.set(key, (sums.get(key) ?? 0) + 1 / (k + index + 1)));
  }
  const best = lists.length / (k + 1);
  return new Map([...sums].map(([key, sum]) => [key, sum / best] as [string, number]).sort((a, b) => b[1] - a[1]));
}
