/**
 * Input and output shapes of neural search and similar search (spec: "the service API", /api/v1/neural), shared by the
 * areas built on them.
 */
import { z } from 'zod';
import { domainFilterSchema, isoDateSchema } from '../../core/field-schemas.js';
import { languageSchema } from '../web-search/schemas.js';

export const NEURAL_CATEGORIES = ['general', 'news', 'academic', 'tech', 'finance'] as const;
export type NeuralCategory = (typeof NEURAL_CATEGORIES)[number];

export const neuralSearchInputSchema = z
  .strictObject({
    query: z.string().trim().min(1, 'must not be empty').max(500),
    num_results: z.int().min(1).max(50).default(10),
    use_autoprompt: z.boolean().default(true),
    include_highlights: z.boolean().default(false),
    include_domains: z.array(domainFilterSchema).min(1).max(50).optional(),
    exclude_domains: z.array(domainFilterSchema).min(1).max(50).optional(),
    start_published_date: isoDateSchema.optional(),
    end_published_date: isoDateSchema.optional(),
    category: z.enum(NEURAL_CATEGORIES).optional(),
    timeout: z.int().min(1).max(120).default(30).describe('Extension: seconds for the whole search'),
    language: languageSchema.default('en').describe('Extension: language code passed to the engines'),
  })
  .refine(
    (i) =>
      !(i.start_published_date && i.end_published_date) ||
      Date.parse(i.start_published_date) <= Date.parse(i.end_published_date),
    {
      message: 'start_published_date must not be after end_published_date',
      path: ['start_published_date'],
    },
  );
export type NeuralSearchInput = z.infer<typeof neuralSearchInputSchema>;

export const neuralResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  content: z.string(),
  score: z.number(),
  published_date: z.string().nullable().describe('Date the page was published; null when unknown'),
  author: z.string().nullable().describe('null when unknown'),
  highlights: z.array(z.string()).optional(),
  source: z.enum(['engines', 'local_index']).describe('Extension: where the candidate came from'),
  semantic_score: z.number().describe('Extension: embedding similarity of the best passage, 0..1'),
  lexical_score: z.number().describe('Extension: lexical relevance, 0..1'),
});

export const neuralSearchOutputSchema = z.object({
  query: z.string(),
  expanded_queries: z.array(z.string()),
  results: z.array(neuralResultSchema),
  autoprompt_used: z.boolean(),
  search_type: z.literal('neural'),
  response_time_ms: z.int(),
  engines_used: z.array(z.string()),
  engines_failed: z.array(z.string()),
  engine_errors: z.record(z.string(), z.object({ code: z.string(), message: z.string() })),
  pages_failed: z.array(z.object({ url: z.string(), reason: z.string() })),
  embedding_model: z.string(),
  model_used: z
    .string()
    .describe(
      'The LLM that expanded the query, or "rules" / "extractive" / "none" when none did; followed by ", ' +
        'reranked by <model>" when a configured cross-encoder (models.reranker) ordered the results',
    ),
});

export const similarInputSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http(s) URL' })
      .max(2048)
      .optional(),
    text: z.string().trim().min(1, 'text must not be empty').max(100_000).optional(),
    num_results: z.int().min(1).max(50).default(10),
    exclude_source: z.boolean().default(true),
    timeout: z.int().min(1).max(120).default(30).describe('Extension: seconds for the whole search'),
  })
  .superRefine((i, ctx) => {
    if (i.url !== undefined && i.text !== undefined)
      ctx.addIssue({ code: 'custom', message: 'give exactly one of url or text, not both', path: ['url'] });
    if (i.url === undefined && i.text === undefined)
      ctx.addIssue({ code: 'custom', message: 'give exactly one of url or text (neither was given)', path: ['url'] });
  });

export const similarOutputSchema = z.object({
  source: z.string(),
  similar: z.array(
    z.object({
      title: z.string(),
      url: z.string(),
      content: z.string(),
      score: z.number(),
      published_date: z.string().nullable(),
      source: z.enum(['engines', 'local_index']).describe('Extension'),
    }),
  ),
  response_time_ms: z.int(),
  queries: z.array(z.string()).describe('Extension: the searches built from the source'),
  engines_failed: z.array(z.string()),
  embedding_model: z.string(),
});
