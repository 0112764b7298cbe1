/**
 * Highlights: the sentences (or passages of up to three sentences) of a text
 * that best answer a query, scored by the blended profile (scorers.ts: meaning
 * and words; relevance is relative to the content's other sentences), with
 * start_index in Unicode code points so that
 * [...content].slice(start_index, start_index + [...text].length).join('') === text.
 */
import { codePointOffsets } from '../chunking/code-points.js';
import type { Embedder } from '../embeddings/types.js';
import { cutPassages, type PassageCut } from './passages.js';
import { passageScorer } from './scorers.js';

/** Very long content: only this many sentences are scored (the first ones). */
export const MAX_SCORED_SENTENCES = 5000;

export interface Highlight {
  text: string;
  relevance: number;
  start_index: number;
}

export async function findHighlights(
  query: string,
  content: string,
  count: number,
  unit: 'sentence' | 'passage',
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<Highlight[]> {
  // Content may be a megabyte of user text: it is read in time slices, so other requests go on meanwhile.
  const cut: PassageCut = unit === 'passage' ? { by: 'window', sentences: 3 } : { by: 'sentence' };
  const candidates = await cutPassages(content, cut, { limit: MAX_SCORED_SENTENCES });
  if (candidates.length === 0) return [];
  const relevance = await passageScorer('blended', embedder).score(query, candidates, signal);
  const scored = candidates.map((candidate, i) => ({ candidate, relevance: relevance[i]! }));
  scored.sort((a, b) => b.relevance - a.relevance || a.candidate.start - b.candidate.start);

  const chosen: typeof scored = [];
  for (const item of scored) {
    if (chosen.length >= count) break;
    const overlaps = chosen.some(
      (c) => item.candidate.start < c.candidate.end && c.candidate.start < item.candidate.end,
    );
    if (!overlaps) chosen.push(item);
  }
  const toCodePoints = codePointOffsets(content);
  return chosen.map(({ candidate, relevance }) => ({
    text: candidate.text,
    relevance,
    start_index: toCodePoints(candidate.start),
  }));
}
