/**
 * The bm25 filter: keeps the blocks of a page that answer the query. The
 * page's blocks are scored together by services/ranking's bm25 profile (the
 * blocks are the corpus); a block is kept when score ≥ threshold (default
 * 1.0), and the heading directly above a kept block is kept with it so the
 * content keeps its structure.
 */
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { passageScorer } from '../../../services/ranking/scorers.js';

export const DEFAULT_BM25_THRESHOLD = 1;

export async function bm25Blocks(
  query: string,
  blocks: TextBlock[],
  threshold = DEFAULT_BM25_THRESHOLD,
): Promise<{ kept: TextBlock[]; scores: number[] }> {
  const scores = await passageScorer('bm25').score(query, blocks);
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
