/**
 * The baseline: compromise 14.17.0's people(), organizations() and places(),
 * mapped to token spans of the same sentences (a match covers the tokens its
 * character range covers; punctuation at its edges is dropped).
 */
import nlp from 'compromise';
import type { SpanType, TokenSpan } from '../../services/entities/spans.js';

interface OffsetMatch {
  offset: { start: number; length: number };
}

export function compromiseSpans(sentences: readonly (readonly string[])[]): TokenSpan[][] {
  const starts: number[][] = [];
  let text = '';
  for (const words of sentences) {
    const offsets: number[] = [];
    for (const word of words) {
      offsets.push(text.length);
      text += word + ' ';
    }
    text += '\n';
    starts.push(offsets);
  }
  const doc = nlp(text);
  const found: Array<{ type: SpanType; start: number; end: number }> = [];
  const collect = (type: SpanType, view: { json(options: object): OffsetMatch[] }) => {
    for (const match of view.json({ offset: true }))
      found.push({ type, start: match.offset.start, end: match.offset.start + match.offset.length });
  };
  collect('PER', doc.people());
  collect('ORG', doc.organizations());
  collect('LOC', doc.places());
  return sentences.map((words, s) => {
    const offsets = starts[s]!;
    const spans: TokenSpan[] = [];
    for (const match of found) {
      const covered: number[] = [];
      words.forEach((word, i) => {
        const start = offsets[i]!;
        if (start >= match.start && start + word.length <= match.end) covered.push(i);
      });
      while (covered.length > 0 && !/[\p{L}\p{N}]/u.test(words[covered[0]!]!)) covered.shift();
      while (covered.length > 0 && !/[\p{L}\p{N}]/u.test(words[covered[covered.length - 1]!]!)) covered.pop();
      if (covered.length > 0)
        spans.push({ type: match.type, start: covered[0]!, end: covered[covered.length - 1]! + 1 });
    }
    return spans;
  });
}
