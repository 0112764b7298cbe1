/**
 * Link analysis: every link of a page (the whole page, not only its main
 * content), merged by URL, each internal (the same site: services/web-search/hosts.ts) or
 * external, with its anchor text, rel values, nofollow (rel nofollow, ugc or
 * sponsored) and a relevance to the query (link-relevance.ts). Links are
 * listed most relevant first; collecting them is services/page-analysis.
 */
import type { Embedder } from '../../../services/embeddings/types.js';
import type { AnalysedLink, CollectedLinks, LinkAnalysis } from '../../../services/page-analysis/anchor-links.js';
import { scoreLinks } from './link-relevance.js';

export type { AnalysedLink, LinkAnalysis };

/** Scores a page's links (collected in the worker pool) for the query, most relevant first. */
export async function analyseLinks(
  collected: CollectedLinks,
  query: string,
  embedder: Embedder | null,
  signal?: AbortSignal,
): Promise<LinkAnalysis> {
  const { links, skipped } = collected;
  const scores = await scoreLinks(query, links, embedder, signal);
  const scored = links.map((link, i) => ({ ...link, relevance: scores[i]! })).sort((a, b) => b.relevance - a.relevance);
  return {
    total: scored.length,
    internal: scored.filter((l) => l.type === 'internal').length,
    external: scored.filter((l) => l.type === 'external').length,
    nofollow: scored.filter((l) => l.nofollow).length,
    skipped,
    links: scored,
  };
}
