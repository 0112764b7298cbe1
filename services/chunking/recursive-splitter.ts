/**
 * The recursive splitter, measured in tokens: cut by the first separator
 * level, pack pieces that fit, and cut oversized pieces again with the next
 * level; token windows are the last resort.
 */
import { countSpanTokens } from './tokenizer.js';
import { tokenWindows } from './token-windows.js';
import type { MeasuredSpan, Span, SpanSplitter, TokenBudget } from './types.js';

export function splitRecursive(text: string, span: Span, levels: SpanSplitter[], budget: TokenBudget): Span[] {
  if (countSpanTokens(text, span) <= budget.maxTokens) return [span];
  return splitOversized(text, span, levels, budget);
}

function splitOversized(text: string, span: Span, levels: SpanSplitter[], budget: TokenBudget): Span[] {
  for (let level = 0; level < levels.length; level++) {
    const pieces = levels[level]!(text, span);
    if (pieces.length < 2) continue; // separator absent here: try the next one
    const finerLevels = levels.slice(level + 1);
    const chunks: Span[] = [];
    let fitting: MeasuredSpan[] = [];
    for (const piece of pieces) {
      const tokens = countSpanTokens(text, piece);
      if (tokens <= budget.maxTokens) {
        fitting.push({ ...piece, tokens });
        continue;
      }
      // Loops, not push(...): argument spreads over input-sized arrays overflow the stack.
      for (const chunk of mergeSpans(fitting, budget)) chunks.push(chunk);
      fitting = [];
      for (const chunk of splitOversized(text, piece, finerLevels, budget)) chunks.push(chunk);
    }
    for (const chunk of mergeSpans(fitting, budget)) chunks.push(chunk);
    return chunks;
  }
  return tokenWindows(text, span, budget);
}

/**
 * Packs consecutive pieces into chunks of at most maxTokens (estimated as the
 * sum of the pieces' counts). With an overlap, each new chunk starts with the
 * trailing pieces of the previous one, up to overlapTokens of them.
 */
export function mergeSpans(pieces: MeasuredSpan[], budget: TokenBudget): Span[] {
  const chunks: Span[] = [];
  const window: MeasuredSpan[] = [];
  let total = 0;
  for (const piece of pieces) {
    if (window.length > 0 && total + piece.tokens > budget.maxTokens) {
      chunks.push({ start: window[0]!.start, end: window[window.length - 1]!.end });
      while (window.length > 0 && (total > budget.overlapTokens || total + piece.tokens > budget.maxTokens)) {
        total -= window.shift()!.tokens;
      }
    }
    window.push(piece);
    total += piece.tokens;
  }
  if (window.length > 0) chunks.push({ start: window[0]!.start, end: window[window.length - 1]!.end });
  return chunks;
}
