/**
 * The passages of read pages ranked for a query: each page's text is cut
 * into passages (the recursive chunker: paragraphs, then lines, sentences,
 * words, within a token budget) and every passage of every page is scored in
 * one call (passage-relevance.ts). A page's score is its best passage's.
 */
import { chunkText } from '../chunking/chunk-text.js';
import type { Embedder } from '../embeddings/types.js';
import { scorePassages, type PassageRelevance, type PassageVectorCache } from './passage-relevance.js';

export const DEFAULT_PASSAGE_TOKENS = 120;
/** Long pages: only their first passages are scored (the lead carries most of the meaning). */
export const DEFAULT_MAX_PASSAGES_PER_PAGE = 60;

export interface PagePassage {
  text: string;
  /** Offsets in the page text, Unicode code points, end exclusive. */
  start: number;
  end: number;
  /** Position among the page's passages. */
  index: number;
  tokens: number;
}

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

export async function pagePassages(text: string, maxTokens = DEFAULT_PASSAGE_TOKENS, limit = DEFAULT_MAX_PASSAGES_PER_PAGE): Promise<PagePassage[]> {
  if (!text.trim()) return [];
  const chunks = await chunkText(text, { strategy: 'recursive', maxTokens, overlapTokens: 0 });
  return chunks.slice(0, limit).map((chunk) => ({ text: chunk.text, start: chunk.start, end: chunk.end, index: chunk.index, tokens: chunk.tokens }));
}

export async function rankPagePassages(
  query: string,
  pages: PageToRank[],
  embedder: Embedder | null,
  options: { passageTokens?: number; maxPassagesPerPage?: number; signal?: AbortSignal; vectors?: PassageVectorCache } = {},
): Promise<RankedPage[]> {
  const split = await Promise.all(pages.map((page) => pagePassages(page.text, options.passageTokens, options.maxPassagesPerPage)));
  const flat = split.flatMap((passages, i) => passages.map((passage) => ({ text: passage.text, title: pages[i]!.title })));
  const scores = await scorePassages(query, flat, embedder, options.signal, options.vectors);
  let offset = 0;
  return split.map((passages) => {
    const ranked = passages.map((passage, i) => ({ ...passage, relevance: scores[offset + i]! }));
    offset += passages.length;
    ranked.sort((a, b) => b.relevance.score - a.relevance.score || a.index - b.index);
    return { passages: ranked, score: ranked[0]?.relevance.score ?? 0 };
  });
}
