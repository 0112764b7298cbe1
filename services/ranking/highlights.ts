/**
 * Highlights: the sentences (or passages of up to three sentences) of a text
 * that best answer a query, scored by meaning and words (scoring.ts; relevance
 * is relative to the content's other sentences), with
 * start_index in Unicode code points so that
 * [...content].slice(start_index, start_index + [...text].length).join('') === text.
 */
import { codePointOffsets } from '../chunking/code-points.js';
import { cosine, type Embedder } from '../embeddings/types.js';
import { lexicalRelevance } from './relevance.js';
import { calibrated, embedCentred } from './calibration.js';
import { TimeSlicer } from '../../core/time-slice.js';
import { sentencesInSlices, sentenceWindows, type Passage } from './passages.js';
import { blend, spread } from './scoring.js';

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
  const slicer = new TimeSlicer();
  const parts = await sentencesInSlices(content, MAX_SCORED_SENTENCES, slicer);
  const candidates: Passage[] = unit === 'passage' ? sentenceWindows(content, parts, 3) : parts;
  if (candidates.length === 0) return [];
  const { vectors, floor } = await embedCentred(embedder, [query, ...candidates.map((c) => c.text)], signal);
  const queryVector = vectors[0]!;
  // Meaning is scaled within the content (spread), like documents in scoring.ts; the floor only
  // keeps content where nothing is related from looking relevant.
  const cosines = candidates.map((_, i) => cosine(queryVector, vectors[i + 1]!));
  const meaning = spread(cosines).map((m, i) => m * Math.min(1, 2 * calibrated(cosines[i]!, floor)));
  const scored: Array<{ candidate: Passage; relevance: number }> = [];
  for (const [i, candidate] of candidates.entries()) {
    scored.push({ candidate, relevance: blend(meaning[i]!, lexicalRelevance(query, { title: '', snippet: candidate.text })) });
    await slicer.pause();
  }
  scored.sort((a, b) => b.relevance - a.relevance || a.candidate.start - b.candidate.start);

  const chosen: typeof scored = [];
  for (const item of scored) {
    if (chosen.length >= count) break;
    const overlaps = chosen.some((c) => item.candidate.start < c.candidate.end && c.candidate.start < item.candidate.end);
    if (!overlaps) chosen.push(item);
  }
  const toCodePoints = codePointOffsets(content);
  return chosen.map(({ candidate, relevance }) => ({ text: candidate.text, relevance, start_index: toCodePoints(candidate.start) }));
}
