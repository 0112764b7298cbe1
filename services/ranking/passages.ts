/**
 * The passage cutter: every ranker cuts text into the units it scores here,
 * by naming the cut (cutPassages):
 *
 *   sentence          one sentence each (verify's evidence, monitor's summary line, highlights)
 *   window of n       up to n consecutive sentences from every start (passage highlights)
 *   words n           consecutive sentences packed up to n words (document vectors, scoring.ts)
 *   tokens n          the recursive chunker within n tokens: paragraphs, then lines,
 *                     sentences, words (page passages for agent, RAG and research)
 *
 * Offsets are kept in UTF-16 units internally and converted to Unicode code
 * points (the API's unit, like Python's str) only when reported; the token
 * cut reports code points already (the chunker's unit).
 */
import { TimeSlicer } from '../../core/time-slice.js';
import { chunkText } from '../chunking/chunk-text.js';
import { chunkLead, type Chunker } from '../chunking/lead.js';
import { sentenceSpans } from '../chunking/segmenters.js';
import { trimSpan } from '../chunking/spans.js';

export interface Passage {
  text: string;
  /** UTF-16 offsets into the source text, end exclusive. */
  start: number;
  end: number;
}

const HAS_WORD = /[\p{L}\p{N}]{2,}/u;

/**
 * Sentences of the text, trimmed, without fragments that hold no word; the text is read only as far as `limit` needs.
 */
export function sentences(text: string, limit = Number.POSITIVE_INFINITY): Passage[] {
  const out: Passage[] = [];
  for (const raw of sentenceSpans(text, { start: 0, end: text.length })) {
    const passage = sentencePassage(text, raw);
    if (passage) out.push(passage);
    if (out.length >= limit) break;
  }
  return out;
}

/** sentences(), pausing between time slices: for long user text read on the event loop. */
async function sentencesInSlices(text: string, limit: number, slicer: TimeSlicer): Promise<Passage[]> {
  const out: Passage[] = [];
  for (const raw of sentenceSpans(text, { start: 0, end: text.length })) {
    const passage = sentencePassage(text, raw);
    if (passage) out.push(passage);
    if (out.length >= limit) break;
    await slicer.pause();
  }
  return out;
}

function sentencePassage(text: string, raw: { start: number; end: number }): Passage | null {
  const span = trimSpan(text, raw);
  if (span.end <= span.start) return null;
  const slice = text.slice(span.start, span.end);
  return HAS_WORD.test(slice) ? { text: slice, start: span.start, end: span.end } : null;
}

/** Consecutive sentences packed into passages of at most maxWords words (a longer sentence stays whole). */
function packSentences(text: string, parts: Passage[], maxWords: number): Passage[] {
  const out: Passage[] = [];
  let current: Passage | null = null;
  let words = 0;
  for (const part of parts) {
    const count = part.text.split(/\s+/).length;
    if (current && words + count > maxWords) {
      out.push(current);
      current = null;
      words = 0;
    }
    current = current
      ? { start: current.start, end: part.end, text: text.slice(current.start, part.end) }
      : { ...part };
    words += count;
  }
  if (current) out.push(current);
  return out;
}

/** Overlapping windows of up to `size` consecutive sentences (every start position). */
function sentenceWindows(text: string, parts: Passage[], size: number): Passage[] {
  const out: Passage[] = [];
  for (let i = 0; i < parts.length; i++) {
    const last = parts[Math.min(parts.length, i + size) - 1]!;
    out.push({ start: parts[i]!.start, end: last.end, text: text.slice(parts[i]!.start, last.end) });
  }
  return out;
}

export type PassageCut =
  | { by: 'sentence' }
  | { by: 'window'; sentences: number }
  | { by: 'words'; words: number }
  | { by: 'tokens'; tokens: number };

export interface CutOptions {
  /** How far the text is read: sentences for the sentence cuts, passages for the token cut. */
  limit?: number;
  /** Long user text is read in time slices so other requests go on meanwhile. */
  slicer?: TimeSlicer;
  /** The token cut's chunker: the worker pool's where the caller has it (default chunkText, on this thread). */
  chunker?: Chunker;
}

export interface CutPassage extends Passage {
  /** Position among the text's passages. */
  index: number;
}

/** The text cut into passages the named way, in text order. */
export async function cutPassages(text: string, cut: PassageCut, options: CutOptions = {}): Promise<CutPassage[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (cut.by === 'tokens') {
    if (!text.trim()) return [];
    const cutOptions = { strategy: 'recursive', maxTokens: cut.tokens, overlapTokens: 0 } as const;
    // With a limit, only the lead that fills it is chunked (a long page's tail would cost seconds on the event loop).
    const chunker = options.chunker ?? chunkText;
    const chunks = Number.isFinite(limit)
      ? await chunkLead(text, cutOptions, limit, chunker)
      : await chunker(text, cutOptions);
    return chunks.map((chunk) => ({ text: chunk.text, start: chunk.start, end: chunk.end, index: chunk.index }));
  }
  const parts = await sentencesInSlices(text, limit, options.slicer ?? new TimeSlicer());
  const passages =
    cut.by === 'window'
      ? sentenceWindows(text, parts, cut.sentences)
      : cut.by === 'words'
        ? packSentences(text, parts, cut.words)
        : parts;
  return passages.map((passage, index) => ({ ...passage, index }));
}
