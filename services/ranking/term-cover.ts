/**
 * The few sentences that together hold a query's terms: greedy weighted set
 * cover. Each step takes the sentence adding the most weight of terms no
 * sentence taken so far holds (ties to the earlier-ranked sentence), until
 * `limit` sentences or nothing more is added. What a long page says about one
 * statement is often spread over a title line, a date line and a sentence of
 * prose; a single best sentence misses that, the cover does not.
 */

export interface TermCover {
  /** Indices of the sentences taken, in the order taken. */
  picked: number[];
  /** Weighted share of the query's terms the sentences taken hold together, 0..1. */
  share: number;
  /** The query's terms no sentence taken holds. */
  missing: string[];
}

/**
 * `terms`: the query's terms and their weights; `sentences`: each sentence's
 * terms as a set, in rank order (the better candidate first).
 */
export function coverTerms(
  terms: ReadonlyMap<string, number>,
  sentences: ReadonlyArray<ReadonlySet<string>>,
  limit: number,
): TermCover {
  const total = [...terms.values()].reduce((sum, w) => sum + w, 0);
  const left = new Map(terms);
  const picked: number[] = [];
  while (picked.length < limit && left.size > 0) {
    let best = -1;
    let bestGain = 0;
    sentences.forEach((sentence, i) => {
      let gain = 0;
      for (const [term, weight] of left) if (sentence.has(term)) gain += weight;
      if (gain > bestGain) (best = i), (bestGain = gain);
    });
    if (best === -1) break;
    picked.push(best);
    for (const term of [...left.keys()]) if (sentences[best]!.has(term)) left.delete(term);
  }
  const missingWeight = [...left.values()].reduce((sum, w) => sum + w, 0);
  return { picked, share: total === 0 ? 0 : 1 - missingWeight / total, missing: [...left.keys()] };
}
