/** POST /api/v1/enhanced/chunk-content: split text into chunks for vector storage (core/chunking). */
import type { EnhancedServices } from './uses.js';
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { escapeMarkdownText, fencedCode } from '../../services/markdown/escape.js';
import {
  chunkText,
  DEFAULT_BREAKPOINT_PERCENTILE,
  DEFAULT_MAX_TOKENS,
  pickStrategy,
} from '../../services/chunking/chunk-text.js';
import { countTokens, TOKENIZER_NAME } from '../../services/chunking/tokenizer.js';
import { CHUNK_STRATEGIES, type Chunk } from '../../services/chunking/types.js';

/** Longest text chunked (about the default HTTP body limit). */
export const MAX_CHUNK_TEXT_CHARS = 1_048_576;
/**
 * Semantic chunking segments and measures on the event loop (its sentences go to the embedding model), so it takes
 * less.
 */
export const MAX_SEMANTIC_TEXT_CHARS = 262_144;

export const chunkInputSchema = z
  .strictObject({
    text: z.string().min(1, 'text must not be empty').max(MAX_CHUNK_TEXT_CHARS),
    strategy: z.enum(CHUNK_STRATEGIES).default('auto'),
    max_tokens: z
      .int()
      .min(16)
      .max(8192)
      .default(DEFAULT_MAX_TOKENS)
      .describe('Extension: upper bound on tokens per chunk'),
    overlap_tokens: z
      .int()
      .min(0)
      .max(4096)
      .optional()
      .describe('Extension: tokens shared by neighbouring chunks (fixed, recursive); default 32'),
    breakpoint_percentile: z
      .number()
      .min(0)
      .max(100)
      .default(DEFAULT_BREAKPOINT_PERCENTILE)
      .describe(
        'Extension, semantic strategy: split where the distance between neighbouring sentences exceeds this percentile',
      ),
  })
  .refine((input) => input.overlap_tokens === undefined || input.overlap_tokens < input.max_tokens, {
    message: 'overlap_tokens must be smaller than max_tokens',
    path: ['overlap_tokens'],
  })
  .refine((input) => input.strategy !== 'semantic' || input.text.length <= MAX_SEMANTIC_TEXT_CHARS, {
    message: `with strategy semantic, text may be at most ${MAX_SEMANTIC_TEXT_CHARS} characters`,
    path: ['text'],
  });

const chunkSchema = z.object({
  index: z.int(),
  text: z.string(),
  start: z.int().describe('Offset of the first character in the input, in Unicode code points'),
  end: z.int().describe('Offset just past the last character, in code points'),
  tokens: z.int(),
  heading_path: z.array(z.string()).optional(),
});

export const chunkOutputSchema = z.object({
  chunks: z.array(chunkSchema),
  total_chunks: z.int(),
  strategy: z.enum(CHUNK_STRATEGIES),
  strategy_used: z.string().describe('What auto resolved to'),
  tokenizer: z.string(),
  total_tokens: z.int(),
  embedding_model: z.string().optional().describe('The model that placed semantic breakpoints'),
});

export function chunkContentCapability(services: EnhancedServices) {
  return defineCapability({
    id: 'enhanced.chunk_content',
    title: 'Chunk text for vector storage',
    description:
      'Split a text into chunks by strategy: fixed (token windows with overlap), sentence, paragraph, ' +
      'recursive, markdown (heading-aware), semantic (embedding breakpoints) or auto. Each chunk is an exact ' +
      'substring with start/end offsets in Unicode code points and a token count (cl100k_base).',
    input: chunkInputSchema,
    output: chunkOutputSchema,
    http: { method: 'POST', path: '/api/v1/enhanced/chunk-content' },
    mcpTool: 'enhanced_chunk_content',
    readOnly: true,
    toMarkdown: (out) =>
      [
        `# ${out.total_chunks} chunks (${escapeMarkdownText(out.strategy_used)}, ${out.total_tokens} tokens)`,
        // Each chunk exactly as cut, in a fence its text cannot close.
        ...out.chunks.map(
          (c) => `\n## Chunk ${c.index} \\[${c.start}, ${c.end}) ${c.tokens} tokens\n\n${fencedCode(c.text)}`,
        ),
      ].join('\n'),
    async handler(input, ctx) {
      const strategyUsed = input.strategy === 'auto' ? pickStrategy(input.text) : input.strategy;
      const options = {
        strategy: input.strategy,
        maxTokens: input.max_tokens,
        ...(input.overlap_tokens !== undefined ? { overlapTokens: input.overlap_tokens } : {}),
        breakpointPercentile: input.breakpoint_percentile,
      };
      let embeddingModel: string | undefined;
      let result: { chunks: Chunk[]; totalTokens: number };
      if (strategyUsed === 'semantic') {
        const embedder = await services.semantic.embedder();
        embeddingModel = embedder.info().id;
        const embed = async (texts: string[]) =>
          (await embedder.embed(texts, ctx.signal)).map((vector) => Array.from(vector));
        result = { chunks: await chunkText(input.text, { ...options, embed }), totalTokens: countTokens(input.text) };
      } else {
        // Tokenizing a megabyte takes seconds: it happens in the worker pool, under its deadline.
        result = await services.parsing.chunk(input.text, options, ctx.signal);
      }
      return {
        chunks: result.chunks,
        total_chunks: result.chunks.length,
        strategy: input.strategy,
        strategy_used: strategyUsed,
        tokenizer: TOKENIZER_NAME,
        total_tokens: result.totalTokens,
        ...(embeddingModel ? { embedding_model: embeddingModel } : {}),
      };
    },
  });
}
