/**
 * What WebSearch.meta answers (the SearXNG surface's metasearch), in a file of its own so the runner's cache can name
 * it.
 */
import type { MergedResult } from './merge.js';

export interface MetaSearchAnswer {
  engines: string[];
  /** Merged by URL, best first; each with every engine's position and the score (merge.ts). */
  results: MergedResult[];
  /** Engines that failed or did not answer in time, with why. */
  unresponsive: Array<{ engine: string; code: string; message: string }>;
}
