/**
 * BM25 over a small corpus: the texts scored together are the documents.
 *
 *   idf(t)    = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *   score(d)  = Σ over query terms t of idf(t) · tf(t,d)·(k1 + 1) / (tf(t,d) + k1·(1 − B + B·|d| / avg|d|))
 *
 * with k1 = 1.2 and B = 0.75 and terms as tokens.ts counts them (stemmed,
 * stop words and lone letters out). Scores are relative to the corpus, not
 * calibrated: a threshold means something within one page, not across pages.
 */
import { roundTo } from '../../core/rounding.js';
import { contentTerms } from './tokens.js';

const K1 = 1.2;
const B = 0.75;

export function bm25Scores(query: string, texts: readonly string[]): number[] {
  return bm25TermScores(
    query,
    texts.map((text) => contentTerms(text)),
  );
}

/** bm25Scores of texts already cut into terms (contentTerms), so long texts can be read in time slices first. */
export function bm25TermScores(query: string, docs: readonly string[][]): number[] {
  const queryTerms = [...new Set(contentTerms(query))];
  const n = docs.length;
  if (n === 0 || queryTerms.length === 0) return docs.map(() => 0);
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const frequencies = docs.map((terms) => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const idf = new Map(
    queryTerms.map((term) => {
      const containing = frequencies.filter((f) => f.has(term)).length;
      return [term, Math.log(1 + (n - containing + 0.5) / (containing + 0.5))];
    }),
  );
  return docs.map((terms, i) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = frequencies[i]!.get(term) ?? 0;
      if (tf === 0) continue;
      score += (idf.get(term)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * terms.length) / avgLength));
    }
    return roundTo(score, 3);
  });
}
