/**
 * The bm25 filter: keeps the blocks of a page that answer the query. Every
 * block is a document of a small corpus (the page's blocks):
 *
 *   idf(t)    = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *   score(b)  = Σ over query terms t of idf(t) · tf(t,b)·(k1 + 1) / (tf(t,b) + k1·(1 − B + B·|b| / avg|b|))
 *
 * with k1 = 1.2 and B = 0.75, terms stemmed and stop words removed. A block is
 * kept when score ≥ threshold (default 1.0); headings directly above a kept
 * block are kept with it so the content keeps its structure.
 */
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { contentTerms } from './terms.js';

export const DEFAULT_BM25_THRESHOLD = 1;
const K1 = 1.2;
const B = 0.75;

export function bm25Scores(query: string, texts: string[]): number[] {
  const queryTerms = [...new Set(contentTerms(query))];
  const docs = texts.map((text) => contentTerms(text));
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
    return Math.round(score * 1000) / 1000;
  });
}

export function bm25Blocks(query: string, blocks: TextBlock[], threshold = DEFAULT_BM25_THRESHOLD): { kept: TextBlock[]; scores: number[] } {
  const scores = bm25Scores(query, blocks.map((b) => b.text));
  const keep = new Set<number>();
  scores.forEach((score, i) => {
    if (score < threshold) return;
    keep.add(i);
    // The nearest heading above a kept block gives it its context.
    for (let j = i - 1; j >= 0; j--) {
      if (blocks[j]!.kind === 'heading') {
        keep.add(j);
        break;
      }
    }
  });
  return { kept: blocks.filter((_, i) => keep.has(i)), scores };
}
