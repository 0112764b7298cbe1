/**
 * Sentences and passages of a text with their exact offsets. Offsets are
 * kept in UTF-16 units internally and converted to Unicode code points (the
 * API's unit, like Python's str) only when reported.
 */
import type { TimeSlicer } from '../../core/time-slice.js';
import { sentenceSpans } from '../chunking/segmenters.js';
import { trimSpan } from '../chunking/spans.js';

export interface Passage {
  text: string;
  /** UTF-16 offsets into the source text, end exclusive. */
  start: number;
  end: number;
}

const HAS_WORD = /[\p{L}\p{N}]{2,}/u;

/** Sentences of the text, trimmed, without fragments that hold no word; the text is read only as far as `limit` needs. */
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
export async function sentencesInSlices(text: string, limit: number, slicer: TimeSlicer): Promise<Passage[]> {
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
export function packSentences(text: string, parts: Passage[], maxWords: number): Passage[] {
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
    current = current ? { start: current.start, end: part.end, text: text.slice(current.start, part.end) } : { ...part };
    words += count;
  }
  if (current) out.push(current);
  return out;
}

/** Overlapping windows of up to `size` consecutive sentences (every start position). */
export function sentenceWindows(text: string, parts: Passage[], size: number): Passage[] {
  const out: Passage[] = [];
  for (let i = 0; i < parts.length; i++) {
    const last = parts[Math.min(parts.length, i + size) - 1]!;
    out.push({ start: parts[i]!.start, end: last.end, text: text.slice(parts[i]!.start, last.end) });
  }
  return out;
}
