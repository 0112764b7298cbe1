/**
 * The passages of read pages ranked for a query: each page's text is cut
 * into passages (passages.ts, the token cut: paragraphs, then lines,
 * sentences, words, within a token budget) and every passage of every page is
 * scored in one call (passage-relevance.ts, the calibrated profile). A page's
 * score is its best passage's. With a reranker (reranker.ts), a cross-encoder
 * reorders the best passages of all pages together.
 */
import { TimeSlicer } from '../../core/time-slice.js';
import type { Chunker } from '../chunking/lead.js';
import type { Embedder } from '../embeddings/types.js';
import { cutPassages, type CutPassage } from './passages.js';
import { rerankScores, type PassageReranker } from './reranker.js';
import { scorePassages, type PassageRelevance, type PassageVectorCache } from './passage-relevance.js';

export const DEFAULT_PASSAGE_TOKENS = 120;
/** Long pages: only their first passages are scored (the lead carries most of the meaning). */
export const DEFAULT_MAX_PASSAGES_PER_PAGE = 60;

/** A passage of a page; offsets in the page text are Unicode code points, end exclusive. */
export type PagePassage = CutPassage;

export interface RankedPassage extends PagePassage {
  relevance: PassageRelevance;
}

export interface PageToRank {
  title: string;
  text: string;
}

export interface RankedPage {
  /** Passages best first. */
  passages: RankedPassage[];
  /** The best passage's score, 0 for a page without text. */
  score: number;
}

export async function rankPagePassages(
  query: string,
  pages: PageToRank[],
  embedder: Embedder | null,
  options: {
    passageTokens?: number;
    maxPassagesPerPage?: number;
    signal?: AbortSignal;
    vectors?: PassageVectorCache;
    reranker?: PassageReranker | null;
    chunker?: Chunker;
  } = {},
): Promise<RankedPage[]> {
  const cut = { by: 'tokens', tokens: options.passageTokens ?? DEFAULT_PASSAGE_TOKENS } as const;
  const limit = options.maxPassagesPerPage ?? DEFAULT_MAX_PASSAGES_PER_PAGE;
  // One page at a time, yielding between pages: each cut is bounded (its lead), many pages together are not.
  const slicer = new TimeSlicer();
  const split: PagePassage[][] = [];
  for (const page of pages) {
    split.push(await cutPassages(page.text, cut, { limit, ...(options.chunker ? { chunker: options.chunker } : {}) }));
    await slicer.pause();
  }
  const flat = split.flatMap((passages, i) =>
    passages.map((passage) => ({ text: passage.text, title: pages[i]!.title })),
  );
  let scores = await scorePassages(query, flat, embedder, options.signal, options.vectors);
  if (options.reranker) {
    const reranked = await rerankScores(
      query,
      flat.map((p) => p.text),
      scores.map((s) => s.score),
      options.reranker,
      options.signal,
    );
    scores = scores.map((relevance, i) => ({ ...relevance, score: reranked[i]! }));
  }
  let offset = 0;
  return split.map((passages) => {
    const ranked = passages.map((passage, i) => ({ ...passage, relevance: scores[offset + i]! }));
    offset += passages.length;
    ranked.sort((a, b) => b.relevance.score - a.relevance.score || a.index - b.index);
    return { passages: ranked, score: ranked[0]?.relevance.score ?? 0 };
  });
}
