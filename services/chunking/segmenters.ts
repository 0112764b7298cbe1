/**
 * Splitters that cut a span into consecutive pieces covering it exactly.
 * Separators stay attached to the end of the piece before them, so joining
 * the pieces gives back the span, and offsets never need rewriting.
 */
import type { Span, SpanSplitter } from './types.js';

/** Cuts after every match of `pattern` (which must have the g flag) inside the span. */
function splitAfterMatches(pattern: RegExp): SpanSplitter {
  return (text, span) => {
    const pieces: Span[] = [];
    let pieceStart = span.start;
    pattern.lastIndex = span.start;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match.index >= span.end) break;
      const cut = Math.min(span.end, match.index + match[0].length);
      if (cut > pieceStart && cut < span.end) {
        pieces.push({ start: pieceStart, end: cut });
        pieceStart = cut;
      }
      if (match[0].length === 0) pattern.lastIndex++;
    }
    pieces.push({ start: pieceStart, end: span.end });
    return pieces;
  };
}

/** Blank-line separated blocks (a line holding only spaces or tabs counts as blank). */
export const splitParagraphs = splitAfterMatches(/\n(?:[ \t]*\n)+/g);

export const splitLines = splitAfterMatches(/\n/g);

/** Words with their trailing whitespace; text without spaces (CJK) stays one piece. */
export const splitWords = splitAfterMatches(/\s+/g);

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
// ICU's segmenter slows down quadratically on long inputs, so it is fed windows of this size.
const SEGMENTER_WINDOW = 4096;

/**
 * Sentences by Unicode rules (Intl.Segmenter). A line break always ends a
 * sentence under those rules, so each line is segmented on its own; very long
 * lines are read in windows, keeping all but the last (possibly cut) sentence.
 */
export const splitSentences: SpanSplitter = (text, span) => {
  const pieces = [...sentenceSpans(text, span)];
  return pieces.length > 0 ? pieces : [{ ...span }];
};

/** The sentences of splitSentences one by one, segmenting only as far as the caller reads. */
export function* sentenceSpans(text: string, span: Span): Generator<Span> {
  let lineStart = span.start;
  while (lineStart < span.end) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 || newline >= span.end ? span.end : newline + 1;
    const pieces: Span[] = [];
    segmentLine(text, lineStart, lineEnd, pieces);
    yield* pieces;
    lineStart = lineEnd;
  }
}

function segmentLine(text: string, start: number, end: number, out: Span[]): void {
  let position = start;
  let window = SEGMENTER_WINDOW;
  while (position < end) {
    const windowEnd = Math.min(end, position + window);
    const segments = [...sentenceSegmenter.segment(text.slice(position, windowEnd))];
    const complete = windowEnd === end ? segments.length : segments.length - 1;
    if (complete < 1) {
      window *= 2; // one sentence longer than the window: widen it
      continue;
    }
    for (let i = 0; i < complete; i++) {
      const segment = segments[i]!;
      out.push({ start: position + segment.index, end: position + segment.index + segment.segment.length });
    }
    const last = segments[complete - 1]!;
    position += last.index + last.segment.length;
    window = SEGMENTER_WINDOW;
  }
}
