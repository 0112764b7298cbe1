/**
 * chunkText: splits a text into chunks that are exact substrings of it, each
 * within a token budget, by one of several strategies (docs/chunking.md).
 */
import { AppError } from '../../core/errors.js';
import { codePointOffsets } from './code-points.js';
import { hasMarkdownHeadings, markdownSections, splitMarkdownBlocks } from './markdown.js';
import { splitRecursive } from './recursive-splitter.js';
import { splitLines, splitParagraphs, splitSentences, splitWords } from './segmenters.js';
import { semanticSpans } from './semantic.js';
import { trimSpan } from './spans.js';
import { countSpanTokens } from './tokenizer.js';
import { tokenWindows } from './token-windows.js';
import {
  CHUNK_STRATEGIES,
  type Chunk,
  type ChunkOptions,
  type ChunkStrategy,
  type Span,
  type TokenBudget,
} from './types.js';

export const DEFAULT_MAX_TOKENS = 256;
export const DEFAULT_OVERLAP_TOKENS = 32;
export const DEFAULT_BREAKPOINT_PERCENTILE = 90;
/**
 * Overlapping windows repeat text: with overlap o of max m, every token is in
 * about m / (m - o) chunks. The chunks may hold at most this many times the
 * input's characters (or MIN_OUTPUT_CHARS for short texts); beyond it the
 * request is refused naming overlap_tokens, before any work is done.
 */
export const MAX_OUTPUT_PER_INPUT_CHAR = 4;
export const MIN_OUTPUT_CHARS = 256 * 1024;

type ConcreteStrategy = Exclude<ChunkStrategy, 'auto'>;

/** A span and, for markdown, the headings it sits under. */
interface PlannedChunk extends Span {
  headingPath?: string[];
}

/** What `auto` resolves to: markdown with headings, else paragraphs with blank lines, else sentences. */
export function pickStrategy(text: string): ConcreteStrategy {
  if (hasMarkdownHeadings(text)) return 'markdown';
  if (/\n[ \t]*\n/.test(text)) return 'paragraph';
  return 'sentence';
}

export async function chunkText(text: string, options: ChunkOptions): Promise<Chunk[]> {
  const settings = validate(text, options);
  if (text.trim() === '') return [];
  const strategy = settings.strategy === 'auto' ? pickStrategy(text) : settings.strategy;
  const planned = await plan(text, strategy, settings);
  return finalize(text, planned, settings.maxTokens);
}

interface Settings extends TokenBudget {
  strategy: ChunkStrategy;
  breakpointPercentile: number;
  embed: ChunkOptions['embed'];
}

function validate(text: unknown, options: ChunkOptions): Settings {
  if (typeof text !== 'string') throw new AppError('INVALID_INPUT', 'text must be a string');
  const { strategy } = options;
  if (!CHUNK_STRATEGIES.includes(strategy)) {
    throw new AppError(
      'INVALID_INPUT',
      `Unknown chunking strategy "${String(strategy)}"; expected one of ${CHUNK_STRATEGIES.join(', ')}`,
    );
  }
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new AppError('INVALID_INPUT', 'maxTokens must be a positive integer');
  const overlapTokens = options.overlapTokens ?? Math.min(DEFAULT_OVERLAP_TOKENS, Math.floor(maxTokens / 2));
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new AppError('INVALID_INPUT', 'overlapTokens must be an integer from 0 to maxTokens - 1');
  }
  const breakpointPercentile = options.breakpointPercentile ?? DEFAULT_BREAKPOINT_PERCENTILE;
  if (typeof breakpointPercentile !== 'number' || !(breakpointPercentile >= 0 && breakpointPercentile <= 100)) {
    throw new AppError('INVALID_INPUT', 'breakpointPercentile must be a number from 0 to 100');
  }
  if (strategy === 'semantic' && typeof options.embed !== 'function') {
    throw new AppError('INVALID_INPUT', 'The semantic strategy needs an embedding model, and none is available');
  }
  const settings = { strategy, maxTokens, overlapTokens, breakpointPercentile, embed: options.embed };
  assertOutputWithinBudget(text, settings);
  return settings;
}

/** Output characters allowed for an input of this length. */
export function outputBudget(text: string): number {
  return Math.max(MIN_OUTPUT_CHARS, MAX_OUTPUT_PER_INPUT_CHAR * text.length);
}

/** Refuses an overlap that would repeat the text more than the output budget allows (strategies that overlap only). */
function assertOutputWithinBudget(
  text: string,
  settings: Pick<Settings, 'strategy' | 'maxTokens' | 'overlapTokens'>,
): void {
  const { strategy, maxTokens, overlapTokens } = settings;
  if (overlapTokens === 0 || !(strategy === 'fixed' || strategy === 'recursive')) return;
  const repeats = maxTokens / (maxTokens - overlapTokens);
  const budget = outputBudget(text);
  if (text.length * repeats <= budget) return;
  const allowedRepeats = budget / text.length;
  const largestOverlap = Math.max(0, Math.floor(maxTokens - maxTokens / allowedRepeats));
  throw new AppError(
    'INVALID_INPUT',
    `overlap_tokens: ${overlapTokens} of max_tokens ${maxTokens} would repeat the text about ${repeats.toFixed(1)} times ` +
      `(${Math.round(text.length * repeats)} characters of chunks for ${text.length} of text); the chunks may hold at most ` +
      `${MAX_OUTPUT_PER_INPUT_CHAR}× the text: use overlap_tokens of at most ${largestOverlap}, or a larger max_tokens`,
    { details: { field: 'overlap_tokens', largest_overlap: largestOverlap } },
  );
}

async function plan(text: string, strategy: ConcreteStrategy, settings: Settings): Promise<PlannedChunk[]> {
  const whole: Span = { start: 0, end: text.length };
  const packed: TokenBudget = { maxTokens: settings.maxTokens, overlapTokens: 0 };
  switch (strategy) {
    case 'fixed':
      return tokenWindows(text, whole, settings);
    case 'sentence':
      return splitRecursive(text, whole, [splitSentences, splitWords], packed);
    case 'paragraph':
      return splitRecursive(text, whole, [splitParagraphs, splitSentences, splitWords], packed);
    case 'recursive':
      return splitRecursive(text, whole, [splitParagraphs, splitLines, splitSentences, splitWords], settings);
    case 'markdown':
      return markdownSections(text).flatMap((section) =>
        splitRecursive(text, section, [splitMarkdownBlocks, splitLines, splitSentences, splitWords], packed).map(
          (span) => ({
            ...span,
            headingPath: section.headingPath,
          }),
        ),
      );
    case 'semantic':
      return semanticSpans(text, settings.maxTokens, settings.embed!, settings.breakpointPercentile);
  }
}

/**
 * Trims whitespace at chunk edges, counts tokens exactly, re-cuts the rare
 * chunk whose exact count exceeds the budget (packing adds up piece counts,
 * which can differ by a token or two from the whole), drops chunks that add
 * nothing beyond the previous one, and converts offsets
 * to code points.
 */
function finalize(text: string, planned: PlannedChunk[], maxTokens: number): Chunk[] {
  const toCodePoint = codePointOffsets(text);
  const chunks: Chunk[] = [];
  let charsLeft = outputBudget(text);
  const emit = (span: Span, tokens: number, headingPath: string[] | undefined): void => {
    // The estimate in validate() covers overlaps; this guarantees the budget, heading paths (repeated per chunk)
    // included.
    charsLeft -= span.end - span.start + (headingPath?.reduce((sum, heading) => sum + heading.length, 0) ?? 0);
    if (charsLeft < 0) {
      throw new AppError(
        'INVALID_INPUT',
        `max_tokens: the chunks would hold more than ${MAX_OUTPUT_PER_INPUT_CHAR}× the text (overlaps and heading paths repeat it); use a larger max_tokens or a smaller overlap_tokens`,
        { details: { field: 'max_tokens' } },
      );
    }
    const chunk: Chunk = {
      index: chunks.length,
      text: text.slice(span.start, span.end),
      start: toCodePoint(span.start),
      end: toCodePoint(span.end),
      tokens,
    };
    if (headingPath) chunk.heading_path = headingPath;
    chunks.push(chunk);
  };
  let previousEnd = -1;
  for (const { headingPath, ...raw } of planned) {
    const span = trimSpan(text, raw);
    // Empty, or inside the chunk before (overlapping windows can trim down to that): nothing new.
    if (span.end <= span.start || span.end <= previousEnd) continue;
    previousEnd = span.end;
    const tokens = countSpanTokens(text, span);
    if (tokens <= maxTokens) {
      emit(span, tokens, headingPath);
      continue;
    }
    for (const piece of tokenWindows(text, span, { maxTokens, overlapTokens: 0 })) {
      const trimmed = trimSpan(text, piece);
      if (trimmed.end > trimmed.start) emit(trimmed, countSpanTokens(text, trimmed), headingPath);
    }
  }
  return chunks;
}
