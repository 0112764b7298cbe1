/**
 * Fixed-size token windows: the text is encoded once, windows are cut at
 * token boundaries and mapped back to character offsets.
 */
import { trimSpan } from './spans.js';
import { countSpanTokens, tokenEndOffsets } from './tokenizer.js';
import type { Span, TokenBudget } from './types.js';

export function tokenWindows(text: string, span: Span, budget: TokenBudget): Span[] {
  const ends = tokenEndOffsets(text.slice(span.start, span.end));
  const tokenCount = ends.length;
  if (tokenCount === 0) return [];
  // boundaries[k] = offset after k tokens
  const boundaries = [span.start, ...ends.map((end) => span.start + end)];
  const windows: Span[] = [];
  let first = 0;
  while (true) {
    let last = Math.min(first + budget.maxTokens, tokenCount);
    // A window re-encoded alone (and trimmed, as chunks are) can take more tokens than its share:
    // merges change at the edges, e.g. " Folks" is one token but "Folks" two.
    while (last > first + 1 && windowTokens(text, boundaries[first]!, boundaries[last]!) > budget.maxTokens) last--;
    // Tokens inside one character (emoji bytes) cannot be cut apart: extend to the character's end.
    while (last < tokenCount && boundaries[last]! <= boundaries[first]!) last++;
    windows.push({ start: boundaries[first]!, end: boundaries[last]! });
    if (last >= tokenCount) break;
    const previousStart = boundaries[first]!;
    first = Math.max(first + 1, last - budget.overlapTokens);
    while (first < last && boundaries[first]! <= previousStart) first++; // tokens inside one emoji share a start
  }
  return windows;
}

function windowTokens(text: string, start: number, end: number): number {
  return countSpanTokens(text, trimSpan(text, { start, end }));
}
