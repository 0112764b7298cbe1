/**
 * What each search_depth does (docs/agent.md, "Depths"). n is max_results.
 *
 * | depth      | engines       | per engine | pages read      | passages       | embeddings | order         | timeout |
 * |------------|---------------|------------|-----------------|----------------|------------|---------------|---------|
 * | ultra-fast | topic's first | n          | none*           | engine snippet | no         | engines       | 8 s     |
 * | fast       | topic's       | n          | n               | 1              | yes        | engines       | 12 s    |
 * | basic      | topic's       | n + 3      | n + 2           | 1              | yes        | engines       | 20 s    |
 * | advanced   | topic's       | 2n         | 2n (at most 30) | 3              | yes        | passage score | 30 s    |
 *
 * Engines: of the topic's engines; per engine: results asked of each; passages: in content; timeout: the default.
 * * ultra-fast reads the n best pages after all when an answer or raw content is asked for.
 * `rerank: true` orders any depth by passage score; chunks_per_source overrides the passages.
 */
import type { SearchDepth } from './schemas.js';

export interface DepthProfile {
  /** How many of the topic's engines to ask (null: all). */
  engines: number | null;
  resultsPerEngine(n: number): number;
  /** Pages read when the depth reads pages. */
  pagesRead(n: number): number;
  /** Whether pages are read even when neither an answer nor raw content is asked for. */
  readsPages: boolean;
  passages: number;
  embeddings: boolean;
  rerank: boolean;
  timeoutSeconds: number;
}

export const DEPTHS: Record<SearchDepth, DepthProfile> = {
  'ultra-fast': {
    engines: 1,
    resultsPerEngine: (n) => n,
    pagesRead: (n) => n,
    readsPages: false,
    passages: 1,
    embeddings: false,
    rerank: false,
    timeoutSeconds: 8,
  },
  fast: {
    engines: null,
    resultsPerEngine: (n) => n,
    pagesRead: (n) => n,
    readsPages: true,
    passages: 1,
    embeddings: true,
    rerank: false,
    timeoutSeconds: 12,
  },
  basic: {
    engines: null,
    resultsPerEngine: (n) => n + 3,
    pagesRead: (n) => n + 2,
    readsPages: true,
    passages: 1,
    embeddings: true,
    rerank: false,
    timeoutSeconds: 20,
  },
  advanced: {
    engines: null,
    resultsPerEngine: (n) => 2 * n,
    pagesRead: (n) => Math.min(30, 2 * n),
    readsPages: true,
    passages: 3,
    embeddings: true,
    rerank: true,
    timeoutSeconds: 30,
  },
};
