/**
 * Input and output of POST /api/v1/enhanced/search: every Search API
 * parameter (services/web-search/schemas.ts) plus the strategies, filters and
 * page features, each with its own options object (docs/enhanced-search.md).
 */
import { z } from 'zod';
import { boundedMap } from '../../../core/field-schemas.js';
import { searchAnswerSchema, searchInputSchema, searchResultSchema } from '../../../services/web-search/schemas.js';

export const EXTRACTION_STRATEGIES = ['none', 'cosine', 'json_css', 'regex', 'llm'] as const;
export const CONTENT_FILTERS = ['none', 'pruning', 'bm25', 'llm'] as const;

const unit = z.number().min(0).max(1);

export const enhancedSearchInputSchema = searchInputSchema.extend({
  extraction_strategy: z
    .enum(EXTRACTION_STRATEGIES)
    .default('none')
    .describe(
      'none, cosine (cluster blocks by meaning), json_css (CSS selector schema), regex (built-in and custom ' +
        'patterns), llm (schema-guided, needs a model)',
    ),
  content_filter: z
    .enum(CONTENT_FILTERS)
    .default('none')
    .describe('none, pruning (drop boilerplate), bm25 (keep blocks relevant to the query), llm (needs a model)'),
  markdown_generation: z.boolean().default(false).describe('Markdown of the filtered content per result'),
  adaptive_crawling: z
    .boolean()
    .default(false)
    .describe('Follow in-site links ranked by relevance until new pages stop adding information'),
  virtual_scrolling: z
    .boolean()
    .default(false)
    .describe('Scroll result pages in the browser and collect content that replaces itself'),
  link_analysis: z
    .boolean()
    .default(false)
    .describe('Every link of each page: internal/external, anchor text, nofollow, relevance'),

  css_schema: boundedMap(32)
    .optional()
    .describe(
      'json_css: {name?, baseSelector, fields: [{name, selector?, type: ' +
        'text|attribute|html|nested|list|nested_list, attribute?, fields?, default?}]}',
    ),
  regex_patterns: z
    .array(z.string().max(64))
    .min(1)
    .max(20)
    .optional()
    .describe(
      'regex: built-in patterns (email, phone, phone_international, phone_us, url, date, date_iso, ' +
        'date_numeric, date_written, currency, price, all); default all unless custom_patterns are given',
    ),
  custom_patterns: boundedMap(
    20,
    z.union([
      z.string().max(500),
      z.strictObject({ pattern: z.string().max(500), flags: z.string().max(4).optional() }),
    ]),
  )
    .optional()
    .describe('regex: {label: pattern} or {label: {pattern, flags}} (flags from i, m, s, u)'),
  cosine: z
    .strictObject({
      semantic_filter: z
        .string()
        .max(2000)
        .optional()
        .describe('What the kept clusters should be about; default the query'),
      word_count_threshold: z
        .int()
        .min(1)
        .max(1000)
        .optional()
        .describe('Blocks with fewer words are ignored; default 10'),
      sim_threshold: unit
        .optional()
        .describe('Clusters merge while their average cosine is at least this; default 0.6'),
      top_k: z.int().min(1).max(50).optional().describe('Clusters kept per page; default 3'),
      min_relevance: unit.optional().describe('Clusters less relevant than this are dropped; default 0.05'),
    })
    .optional(),
  llm_instruction: z
    .string()
    .max(4000)
    .optional()
    .describe('llm strategy: what to extract; default "Extract the information relevant to the query"'),
  llm_schema: boundedMap(64).optional().describe('llm strategy: JSON Schema the answer should follow'),
  pruning: z
    .strictObject({
      threshold: unit.optional().describe('Blocks scoring below are dropped; default 0.5'),
      min_words: z.int().min(0).max(1000).optional().describe('Blocks with fewer words are dropped; default 0'),
    })
    .optional(),
  bm25: z
    .strictObject({
      threshold: z.number().min(0).max(100).optional().describe('Blocks scoring below are dropped; default 1.0'),
      query: z.string().max(2000).optional().describe('Scored against this instead of the query'),
    })
    .optional(),
  llm_filter_instruction: z
    .string()
    .max(4000)
    .optional()
    .describe('llm filter: what to keep; default content relevant to the query'),
  adaptive: z
    .strictObject({
      max_pages: z.int().min(1).max(50).optional().describe('Pages per result, the result page included; default 10'),
      max_depth: z.int().min(1).max(5).optional().describe('Link hops from the result page; default 2'),
      min_gain: unit
        .optional()
        .describe('A page adding less new information than this is a low-gain page; default 0.1'),
      patience: z.int().min(1).max(10).optional().describe('Stop after this many low-gain pages in a row; default 2'),
    })
    .optional(),
  scroll: z
    .strictObject({
      max_scrolls: z.int().min(1).max(100).optional().describe('default 10'),
      scroll_delay_ms: z.int().min(0).max(10_000).optional().describe('default 500'),
    })
    .optional(),
});
export type EnhancedSearchInput = z.infer<typeof enhancedSearchInputSchema>;

const stepErrorSchema = z.object({ step: z.string(), code: z.string(), message: z.string() });

export const enhancedPageSchema = z.object({
  status: z.enum(['ok', 'partial', 'failed']).describe('partial: some steps failed (see errors)'),
  errors: z.array(stepErrorSchema),
  content: z
    .object({
      filter: z.enum(CONTENT_FILTERS),
      blocks_total: z.int(),
      blocks_kept: z.int(),
      text: z.string(),
      model: z.string().optional(),
    })
    .optional(),
  markdown: z.string().optional(),
  extraction: z
    .object({ strategy: z.enum(EXTRACTION_STRATEGIES), data: z.unknown() })
    .loose()
    .optional(),
  adaptive_crawl: z.record(z.string(), z.unknown()).optional(),
  virtual_scroll: z
    .object({ available: z.boolean(), used: z.boolean(), reason: z.string().optional() })
    .loose()
    .optional(),
  link_analysis: z.record(z.string(), z.unknown()).optional(),
});
export type EnhancedPage = z.infer<typeof enhancedPageSchema>;

export const enhancedResultSchema = searchResultSchema.extend({ enhanced: enhancedPageSchema.optional() });
export type EnhancedResult = z.infer<typeof enhancedResultSchema>;

export const enhancedMetadataSchema = z.object({
  extraction_strategy: z.enum(EXTRACTION_STRATEGIES),
  content_filter: z.enum(CONTENT_FILTERS),
  markdown_generation: z.boolean(),
  adaptive_crawling: z.boolean(),
  virtual_scrolling: z.boolean(),
  link_analysis: z.boolean(),
  pages_processed: z.int(),
  pages_failed: z.int(),
  embedding_model: z.string().optional(),
  llm_model: z.string().optional(),
  enhanced_time_ms: z.int(),
});

export const enhancedAnswerSchema = searchAnswerSchema.extend({
  results: z.array(enhancedResultSchema),
  enhanced_metadata: enhancedMetadataSchema,
});
export type EnhancedAnswer = z.infer<typeof enhancedAnswerSchema>;
