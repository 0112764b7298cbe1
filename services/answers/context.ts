/**
 * Context for a language model, fitted to a token budget (docs/rag.md,
 * "Context"): the most relevant chunks, chosen best first while they fit,
 * then ordered for reading (by source number, then by position in the page),
 * each tagged with its source's number:
 *
 *   [2] <chunk text>
 *
 *   [2] <next chunk of source 2>
 *
 * Tokens are counted with the chunker's tokenizer (cl100k_base,
 * services/chunking/tokenizer.ts) on the final text, so the budget holds
 * exactly. A chunk too long for what is left is cut after its last whole
 * sentence that fits, and skipped when not even one fits.
 */
import { escapeMarkdownText } from '../markdown/escape.js';
import { countTokens } from '../chunking/tokenizer.js';
import { sentences } from '../ranking/passages.js';

export interface ContextChunk {
  /** The 1-based number of the returned source it comes from. */
  source: number;
  text: string;
  score: number;
  /** Position in its page (offset or chunk index), for reading order. */
  position: number;
}

export interface FittedContext {
  context: string;
  tokens: number;
  chunks: ContextChunk[];
}

const SEPARATOR = '\n\n';

/** Chunk text is page text: escaped, so the context is markdown an agent can show as it is. */
function render(chunks: ContextChunk[]): string {
  return chunks
    .map((c) => `[${c.source}] ${escapeMarkdownText(c.text.replace(/\s*\n\s*/g, ' ').trim())}`)
    .join(SEPARATOR);
}

function readingOrder(chunks: ContextChunk[]): ContextChunk[] {
  return [...chunks].sort((a, b) => a.source - b.source || a.position - b.position);
}

/** The leading whole sentences of text whose tagged form fits in `budget` tokens, or null. */
function cutToFit(chunk: ContextChunk, budget: number): ContextChunk | null {
  const parts = sentences(chunk.text);
  let best: ContextChunk | null = null;
  for (let n = 1; n <= parts.length; n++) {
    const text = chunk.text.slice(parts[0]!.start, parts[n - 1]!.end);
    const candidate = { ...chunk, text };
    if (countTokens(render([candidate])) > budget) break;
    best = candidate;
  }
  return best;
}

export function fitContext(candidates: ContextChunk[], budget: number): FittedContext {
  const chosen: ContextChunk[] = [];
  const byScore = [...candidates].sort((a, b) => b.score - a.score || a.source - b.source || a.position - b.position);
  for (const chunk of byScore) {
    const separatorTokens = chosen.length > 0 ? countTokens(SEPARATOR) : 0;
    const used = chosen.length > 0 ? countTokens(render(readingOrder(chosen))) : 0;
    const left = budget - used - separatorTokens;
    if (left <= 0) break;
    const whole = countTokens(render([chunk]));
    const piece = whole <= left ? chunk : cutToFit(chunk, left);
    if (!piece) continue;
    // Joining can merge tokens across the seam; the exact count of the whole decides.
    if (countTokens(render(readingOrder([...chosen, piece]))) <= budget) chosen.push(piece);
  }
  const ordered = readingOrder(chosen);
  const context = render(ordered);
  return { context, tokens: countTokens(context), chunks: ordered };
}
