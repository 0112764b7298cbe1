/** Input and output schemas of the Search API (spec: Search API), declared once for both hosts. */
import { z } from 'zod';
import { httpUrlSchema } from '../../core/field-schemas.js';
import type { HttpFieldAlias } from '../../core/capability.js';
import { ENGINE_CATEGORIES } from '../../core/engine.js';
import { deliveryStateFields } from '../webhooks/delivery-schemas.js';

export const engineIdSchema = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, 'engine ids are lower-case names like "duckduckgo"');
/** A language code such as "en" or "pt-BR", or "all". */
export const languageSchema = z
  .string()
  .max(16)
  .regex(/^([a-z]{2,3}(-[A-Za-z]{2,4})?|all)$/, 'must be a language code such as "en", "de" or "pt-BR", or "all"');

export const searchInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(2000),
  engines: z
    .array(engineIdSchema)
    .min(1)
    .max(100)
    .optional()
    .describe('Engines to use; default: the configured three general web engines'),
  categories: z
    .array(z.enum(ENGINE_CATEGORIES))
    .min(1)
    .max(ENGINE_CATEGORIES.length)
    .optional()
    .describe(
      'Extension: use every enabled engine of these categories (when engines is not given); results are ' +
        'grouped by category',
    ),
  max_results: z.int().min(1).max(100).default(10),
  scrape_content: z.boolean().default(true).describe('Fetch and extract the full content of each result'),
  output_format: z.enum(['json', 'markdown']).default('json'),
  language: languageSchema.default('en'),
  safe_search: z.enum(['strict', 'moderate', 'off']).default('moderate'),
  cache_ttl: z
    .int()
    .min(0)
    .max(604_800)
    .default(3600)
    .describe('Seconds an identical request is answered from cache; 0 disables'),
  js_mode: z.boolean().default(false).describe('Render result pages with a headless browser when scraping'),
  relevance_filter: z.boolean().default(true),
  min_relevance_score: z.number().min(0).max(1).default(0.15),
  include_images: z.boolean().default(true),
  include_links: z.boolean().default(true),
  timeout: z.number().min(1).max(120).default(30).describe('Seconds; bounds the whole request, scraping included'),
  async_mode: z.boolean().default(false),
  webhook_url: httpUrlSchema
    .optional()
    .describe(
      'With async_mode: the finished answer is POSTed here, signed (see docs/webhooks.md); unused without async_mode',
    ),
  time_range: z.enum(['day', 'week', 'month', 'year']).optional().describe('Extension: only results from this period'),
  page: z.int().min(1).max(50).default(1).describe('Extension: result page'),
  explain: z.boolean().default(false).describe('Extension: add a per-result score breakdown'),
});
export type SearchInput = z.infer<typeof searchInputSchema>;

/** Field names older SDKs send over HTTP: use_cache false means cache_ttl 0; true changes nothing. */
export const searchFieldAliases: Record<string, HttpFieldAlias> = {
  use_cache: {
    field: 'cache_ttl',
    map: (value) => (value === false ? { value: 0 } : value === true ? { ignore: true } : { value }),
  },
};

export const scrapedContentSchema = z.object({
  url: z.string(),
  title: z.string(),
  text: z.string(),
  markdown: z.string().optional(),
  images: z.array(z.string()),
  links: z.array(z.string()),
  word_count: z.int(),
  extraction_success: z.boolean(),
  extraction_time_ms: z.int(),
  content_quality_score: z.number(),
  failure_reason: z.string().optional(),
  metadata: z
    .object({
      description: z.string().nullable(),
      author: z.string().nullable(),
      published_date: z.string().nullable(),
      keywords: z.array(z.string()),
    })
    .optional(),
});

export const searchResultSchema = z.object({
  rank: z.int(),
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  engine: z.string(),
  score: z.number(),
  engines: z.array(z.string()),
  category: z.string().optional(),
  published_date: z.string().optional(),
  thumbnail: z.string().optional(),
  relevance_score: z.number().optional(),
  scraped_content: scrapedContentSchema.optional(),
  explanation: z
    .object({
      formula: z.string(),
      contributions: z.array(
        z.object({ engine: z.string(), position: z.int(), weight: z.number(), contribution: z.number() }),
      ),
    })
    .optional(),
});

export const searchMetadataSchema = z.object({
  query: z.string(),
  language: z.string().describe('The language the engines were asked for'),
  engines_used: z.array(z.string()),
  engines: z.array(z.string()).describe('The same list as engines_used (the name older clients read)'),
  engines_succeeded: z.array(z.string()),
  engines_failed: z.array(z.string()),
  engine_errors: z.record(z.string(), z.object({ code: z.string(), message: z.string() })),
  total_results_found: z.int(),
  results_returned: z.int(),
  search_time_ms: z.int(),
  timestamp: z.string(),
  relevance_filtered: z.boolean(),
  relevance_dropped: z.int(),
  page: z.int(),
  categories: z.array(z.string()).optional(),
  webhook_unused: z
    .literal(true)
    .optional()
    .describe('webhook_url was given without async_mode: nothing is sent there'),
});

export const searchAnswerSchema = z.object({
  search_metadata: searchMetadataSchema,
  results: z.array(searchResultSchema),
  processing_time_ms: z.int(),
  cached: z.boolean(),
  total_results: z.int(),
  request_id: z.string(),
  markdown: z.string().optional(),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;
export type SearchResultItem = z.infer<typeof searchResultSchema>;

/** The 202 answer of async_mode: the job is stored; poll status_url (or wait for the webhook). */
export const asyncAcceptedSchema = z.object({
  request_id: z.string(),
  job_id: z.string().describe('The same id as request_id'),
  status: z.enum(['pending', 'processing']),
  status_url: z.string(),
  webhook_url: z.string().optional(),
});
export type AsyncAccepted = z.infer<typeof asyncAcceptedSchema>;

export const batchInputSchema = z.strictObject({
  queries: z.array(z.string().trim().min(1, 'queries must not be empty').max(2000)).min(1).max(100),
  engines: z.array(engineIdSchema).min(1).max(100).optional().describe('Default: one general web engine'),
  max_results_per_query: z.int().min(1).max(100).default(10),
  scrape_content: z.boolean().default(false),
  parallel_requests: z.int().min(1).max(20).default(5),
  language: languageSchema.default('en'),
  safe_search: z.enum(['strict', 'moderate', 'off']).default('moderate'),
  timeout: z.number().min(1).max(300).default(60).describe('Seconds for the whole batch'),
});

export const batchOutputSchema = z.object({
  batch_id: z.string(),
  queries_processed: z.int(),
  queries_failed: z.int(),
  results: z.record(z.string(), z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string() }))),
  processing_time_ms: z.int(),
  errors: z.record(z.string(), z.string()),
});

export const enginesInputSchema = z.strictObject({});

const engineEntrySchema = z
  .object({
    name: z.string(),
    enabled: z.boolean(),
    categories: z.array(z.string()),
    supported_languages: z.array(z.string()),
    safe_search_support: z.boolean(),
    time_range_support: z.boolean(),
    paging_support: z.boolean(),
  })
  .loose();

export const enginesOutputSchema = z.object({
  engines: z.record(z.string(), engineEntrySchema),
  total_engines: z.int(),
  enabled_engines: z.int(),
});

export const jobStatusInputSchema = z.strictObject({
  request_id: z
    .string()
    .max(68)
    .regex(/^req_[a-f0-9]{8,64}$/, 'must be a request id like req_…'),
});

export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

export const jobStatusOutputSchema = z.object({
  request_id: z.string(),
  job_id: z.string().describe('The same id as request_id'),
  status: z.enum(JOB_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  progress: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).optional(),
  results: z
    .array(searchResultSchema)
    .optional()
    .describe("When completed: the answer's results (the whole answer is in result)"),
  result: searchAnswerSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  // Each detail absent while not known (the delivery log's own fields: services/webhooks/delivery-schemas.ts).
  webhook: z.object(deliveryStateFields((field) => field.optional())).optional(),
});
