/**
 * `instructions` without an LLM (docs/agent.md, "Crawl and map"): the text of
 * the instructions is the query of the passage ranking (services/ranking).
 * A crawl scores each page read by its best passage, drops pages below
 * INSTRUCTION_FLOOR and orders the rest best first; a map, which has no page
 * text, scores each URL's words (path and host) and keeps those sharing at
 * least one content term with the instructions, best first.
 */
import { urlWords } from '../../services/ranking/url-words.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { rankPagePassages, type RankedPassage } from '../../services/ranking/page-passages.js';
import { scorePassages } from '../../services/ranking/passage-relevance.js';

/**
 * Pages whose best passage scores below this are dropped. The score is a
 * calibrated probability (docs/agent.md, "Scores"): below 0.3 a passage
 * holding what was asked for is unlikely.
 */
export const INSTRUCTION_FLOOR = 0.3;

export interface PageForInstructions {
  title: string;
  text: string;
}

export interface PageRanking {
  /** Index into the pages given. */
  index: number;
  score: number;
  passages: RankedPassage[];
}

/** The pages that meet the floor, best first (ties in the order given). */
export async function rankPagesByInstructions(
  instructions: string,
  pages: PageForInstructions[],
  embedder: Embedder | null,
  signal?: AbortSignal,
): Promise<PageRanking[]> {
  const ranked = await rankPagePassages(instructions, pages, embedder, signal ? { signal } : {});
  return ranked
    .map((page, index) => ({ index, score: page.score, passages: page.passages }))
    .filter((page) => page.score >= INSTRUCTION_FLOOR)
    .sort((a, b) => b.score - a.score || a.index - b.index);
}

/** URLs sharing a content term with the instructions, best first (ties in the order given). */
export async function rankUrlsByInstructions(
  instructions: string,
  urls: string[],
  embedder: Embedder | null,
  signal?: AbortSignal,
): Promise<Array<{ url: string; score: number }>> {
  if (urls.length === 0) return [];
  const scores = await scorePassages(
    instructions,
    urls.map((url) => ({ text: urlWords(url, { host: true }), title: '' })),
    embedder,
    signal,
  );
  return urls
    .map((url, index) => ({ url, index, relevance: scores[index]! }))
    .filter((entry) => entry.relevance.coverage > 0)
    .sort((a, b) => b.relevance.score - a.relevance.score || a.index - b.index)
    .map(({ url, relevance }) => ({ url, score: relevance.score }));
}
