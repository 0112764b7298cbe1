/**
 * The cosine strategy: groups a page's text blocks by meaning and keeps the
 * groups that match the query (or semantic_filter).
 *
 * 1. Blocks with at least word_count_threshold words (default 10) are embedded
 *    (centred vectors, services/ranking/calibration.ts), at most 300 per page.
 * 2. Agglomerative clustering with average linkage: start with one cluster per
 *    block and merge the two most similar clusters while their average pairwise
 *    cosine is at least sim_threshold (default 0.6).
 * 3. Each cluster's relevance is the calibrated cosine between the query and
 *    the unit mean of its block vectors; clusters are ranked by it and the top_k
 *    (default 3) with relevance ≥ min_relevance (default 0.05) are kept.
 * 4. Keywords of a cluster: its five terms with the highest tf·idf, idf taken
 *    over the page's blocks.
 */
import { roundScore } from '../../../core/rounding.js';
import { TimeSlicer } from '../../../core/time-slice.js';
import { cosine, type Embedder } from '../../../services/embeddings/types.js';
import { calibrated, embedCentred } from '../../../services/ranking/calibration.js';
import { meanVector } from '../../../services/ranking/scoring.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { contentTerms } from '../../../services/ranking/tokens.js';

export interface CosineOptions {
  semanticFilter: string;
  wordCountThreshold: number;
  simThreshold: number;
  topK: number;
  minRelevance: number;
}

export interface BlockCluster {
  id: number;
  relevance: number;
  size: number;
  keywords: string[];
  text: string;
  /** Indexes of the member blocks in the page's block list. */
  block_indexes: number[];
}

export const COSINE_DEFAULTS = { wordCountThreshold: 10, simThreshold: 0.6, topK: 3, minRelevance: 0.05 };
const MAX_BLOCKS = 300;

/**
 * Average-linkage agglomerative clustering over a cosine similarity matrix; returns member lists.
 * O(n³) for n blocks (up to 300 merges, each a scan of the matrix), so it runs in time slices.
 */
export async function agglomerate(
  vectors: Float32Array[],
  threshold: number,
  slicer = new TimeSlicer(),
): Promise<number[][]> {
  const n = vectors.length;
  const sim: number[][] = [];
  for (const a of vectors) {
    sim.push(vectors.map((b) => cosine(a, b)));
    await slicer.pause();
  }
  const members: Array<number[] | null> = vectors.map((_, i) => [i]);
  for (;;) {
    await slicer.pause();
    let best = -Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++) {
      if (!members[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (members[j] && sim[i]![j]! > best) {
          best = sim[i]![j]!;
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0 || best < threshold) break;
    const ni = members[bi]!.length;
    const nj = members[bj]!.length;
    // Lance–Williams update for average linkage: the merged cluster's similarity is the size-weighted mean.
    for (let k = 0; k < n; k++) {
      if (!members[k] || k === bi || k === bj) continue;
      const merged = (ni * sim[bi]![k]! + nj * sim[bj]![k]!) / (ni + nj);
      sim[bi]![k] = merged;
      sim[k]![bi] = merged;
    }
    members[bi] = [...members[bi]!, ...members[bj]!].sort((a, b) => a - b);
    members[bj] = null;
  }
  return members.filter((m): m is number[] => m !== null);
}

function keywords(memberTerms: string[][], documentFrequency: Map<string, number>, documents: number): string[] {
  const tf = new Map<string, number>();
  for (const terms of memberTerms) for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
  return [...tf]
    .map(([term, count]) => [term, count * Math.log(1 + documents / (documentFrequency.get(term) ?? 1))] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([term]) => term);
}

export async function cosineClusters(
  blocks: TextBlock[],
  embedder: Embedder,
  options: CosineOptions,
  signal?: AbortSignal,
): Promise<{ clusters: BlockCluster[]; total_clusters: number; blocks_considered: number }> {
  const candidates = blocks.filter((b) => b.words >= options.wordCountThreshold).slice(0, MAX_BLOCKS);
  if (candidates.length === 0) return { clusters: [], total_clusters: 0, blocks_considered: 0 };
  const { vectors, floor } = await embedCentred(
    embedder,
    [options.semanticFilter, ...candidates.map((b) => b.text)],
    signal,
  );
  const [queryVector, ...blockVectors] = vectors as [Float32Array, ...Float32Array[]];
  const slicer = new TimeSlicer();
  const groups = await agglomerate(blockVectors, options.simThreshold, slicer);
  const terms: string[][] = [];
  for (const block of candidates) {
    terms.push(contentTerms(block.text));
    await slicer.pause();
  }
  const documentFrequency = new Map<string, number>();
  for (const t of terms)
    for (const term of new Set(t)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const clusters = groups.map((group) => {
    const centroid = meanVector(
      group.map((i) => blockVectors[i]!),
      queryVector.length,
    );
    return {
      relevance: roundScore(calibrated(cosine(queryVector, centroid), floor)),
      size: group.length,
      keywords: keywords(
        group.map((i) => terms[i]!),
        documentFrequency,
        candidates.length,
      ),
      text: group.map((i) => candidates[i]!.text).join('\n\n'),
      block_indexes: group.map((i) => candidates[i]!.index),
    };
  });
  const kept = clusters
    .sort((a, b) => b.relevance - a.relevance)
    .filter((c) => c.relevance >= options.minRelevance)
    .slice(0, options.topK)
    .map((c, id) => ({ id, ...c }));
  return { clusters: kept, total_clusters: clusters.length, blocks_considered: candidates.length };
}
