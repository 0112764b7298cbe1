/** Input and output shapes of the RAG area (spec: "RAG API"), plus the corpus management routes beyond it. */
import { z } from 'zod';
import { httpUrlSchema } from '../../core/field-schemas.js';
import { jobAcceptedSchema } from '../../services/jobs/job-view.js';
import { RAG_CATEGORIES } from '../../services/research/plan.js';
import { engineIdSchema } from '../../services/web-search/schemas.js';

export const RAG_DEPTHS = ['quick', 'standard', 'deep'] as const;
export type RagDepth = (typeof RAG_DEPTHS)[number];
export const CORPUS_STATUSES = ['building', 'complete', 'incomplete'] as const;

const languageSchema = z
  .string()
  .max(16)
  .regex(/^([a-z]{2,3}(-[A-Za-z]{2,4})?|all)$/, 'must be a language code such as "en" or "all"');
export const corpusIdSchema = z
  .string()
  .max(71)
  .regex(/^corpus_[a-f0-9]{16,64}$/, 'must be a corpus id like corpus_… (from rag/research)');

export const ragSourceSchema = z.object({
  url: z.string(),
  title: z.string(),
  content: z.string().describe('The page text (at most 8,000 characters here; the corpus keeps it whole)'),
  summary: z.string().describe("Extractive (the page's best sentences for the query) unless an LLM is configured"),
  relevance_score: z.number().describe("Calibrated relevance of the page's best passage, 0..1 (docs/rag.md)"),
  word_count: z.int(),
  engine: z.string(),
  scraped_at: z.string().describe('ISO 8601 UTC; when the page was read'),
});

export const ragSearchInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(2000),
  max_sources: z.int().min(1).max(20).default(5),
  scrape_content: z.boolean().default(true),
  engines: z
    .array(engineIdSchema)
    .min(1)
    .max(20)
    .optional()
    .describe('Default: one general web engine (search.defaultSingleEngine, duckduckgo)'),
  include_context: z.boolean().default(true),
  max_context_tokens: z
    .int()
    .min(50)
    .max(32_000)
    .default(3000)
    .describe("Extension: token budget of context (cl100k_base, the chunker's tokenizer)"),
  language: languageSchema.default('en').describe('Extension'),
  timeout: z.number().min(1).max(120).default(30).describe('Extension: seconds for the whole call'),
});
export type RagSearchInput = z.infer<typeof ragSearchInputSchema>;

export const ragSearchOutputSchema = z.object({
  query: z.string(),
  context: z
    .string()
    .describe('The most relevant chunks, in reading order, each tagged [n] with its source; within max_context_tokens'),
  sources: z.array(ragSourceSchema),
  source_count: z.int(),
  processing_time_ms: z.int(),
  context_tokens: z.int().describe('Extension: tokens of context'),
  model_used: z
    .string()
    .describe(
      'Extension: the LLM that wrote the summaries, or "extractive"; followed by ", reranked by <model>" ' +
        'when a configured cross-encoder (models.reranker) ordered the passages',
    ),
  engines_failed: z.array(z.string()).describe('Extension'),
  failed_results: z
    .array(z.object({ url: z.string(), error: z.string() }))
    .describe('Extension: pages that could not be read'),
});
export type RagSearchOutput = z.infer<typeof ragSearchOutputSchema>;

export const ragResearchInputSchema = z.strictObject({
  topic: z.string().trim().min(1, 'must not be empty').max(500),
  depth: z.enum(RAG_DEPTHS).default('standard'),
  num_queries: z.int().min(1).max(30).optional().describe('Default by depth: quick 3, standard 6, deep 10'),
  target_sources: z.int().min(1).max(100).optional().describe('Default by depth: quick 8, standard 20, deep 40'),
  categories: z.array(z.enum(RAG_CATEGORIES)).min(1).max(10).optional(),
  engines: z
    .array(engineIdSchema)
    .min(1)
    .max(20)
    .optional()
    .describe('Default: one general web engine (search.defaultSingleEngine)'),
  scrape_content: z.boolean().default(true),
  generate_embeddings: z
    .boolean()
    .default(false)
    .describe("Chunks are always embedded in the corpus; true also returns each source's document vector"),
  language: languageSchema.default('en'),
  async: z.boolean().default(false).describe('Extension: answer at once with the corpus id, a job id and a status URL'),
  timeout: z
    .number()
    .min(10)
    .max(1800)
    .optional()
    .describe('Extension: seconds for the whole build (default by depth)'),
});
export type RagResearchInput = z.infer<typeof ragResearchInputSchema>;

export const corpusCountsSchema = z.object({ sources: z.int(), chunks: z.int(), failed: z.int(), duplicates: z.int() });

export const ragResearchResultSchema = z.object({
  topic: z.string(),
  corpus_id: z.string(),
  sources: z.array(ragSourceSchema.extend({ id: z.string(), embedding: z.array(z.number()).optional() })),
  total_sources_found: z.int().describe('Distinct results the engines returned'),
  queries_executed: z.array(z.string()),
  processing_time_ms: z.int(),
  depth: z.enum(RAG_DEPTHS),
  status: z.enum(CORPUS_STATUSES).describe('Extension: complete, or incomplete when the build stopped early'),
  counts: corpusCountsSchema.describe('Extension'),
  categories: z.array(z.string()).describe('Extension'),
  embedding_model: z.string().describe('Extension'),
  model_used: z
    .string()
    .describe(
      'Extension: the LLM that planned the queries and wrote summaries, or "templates + extractive"; ' +
        'followed by ", reranked by <model>" when a configured cross-encoder (models.reranker) ordered the ' +
        'passages',
    ),
  failed_results: z.array(z.object({ url: z.string(), error: z.string() })),
});
export type RagResearchResult = z.infer<typeof ragResearchResultSchema>;

export const ragJobAcceptedSchema = jobAcceptedSchema.extend({ corpus_id: z.string() });

export const semanticSearchInputSchema = z.strictObject({
  corpus_id: corpusIdSchema,
  query: z.string().trim().min(1, 'must not be empty').max(2000),
  limit: z.int().min(1).max(100).default(10),
  min_relevance: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('Calibrated score (docs/rag.md): 0.5 keeps chunks more likely relevant than not'),
});

export const corpusHitSchema = z.object({
  id: z.string().describe('The source, src_<id>'),
  score: z.number(),
  url: z.string(),
  title: z.string(),
  summary: z.string(),
  text: z.string().describe('Extension: the matching chunk'),
  chunk_index: z.int(),
  start: z.int().describe('Offset of the chunk in the source content, code points'),
  end: z.int(),
  fused: z.number().describe('Extension: reciprocal rank fusion of the vector and full-text legs, 1 = first in both'),
});

export const semanticSearchOutputSchema = z.object({
  corpus_id: z.string(),
  query: z.string(),
  results: z.array(corpusHitSchema),
  total_results: z.int(),
  processing_time_ms: z.int(),
  corpus_status: z.enum(CORPUS_STATUSES).describe('Extension'),
  vector_search: z
    .boolean()
    .describe('Extension: false when the corpus was embedded with another model than the one loaded (full text only)'),
});

export const ragImagesInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(500),
  max_results: z.int().min(1).max(50).default(10),
  safe_search: z.enum(['strict', 'moderate', 'off']).default('moderate'),
  engines: z
    .array(engineIdSchema)
    .min(1)
    .max(10)
    .optional()
    .describe(
      'Image engines (ids ending in _images); default one: bing_images, or the first enabled of ' +
        'duckduckgo_images, openverse_images, wikimedia_images',
    ),
});

export const imageResultSchema = z.object({
  url: z.string(),
  thumbnail_url: z.string(),
  title: z.string(),
  source_url: z.string(),
  width: z.int().nullable().describe('Null when no engine gave it'),
  height: z.int().nullable(),
  engine: z.string(),
  engines: z.array(z.string()).describe('Extension: every engine that found it'),
});

export const ragImagesOutputSchema = z.object({
  query: z.string(),
  images: z.array(imageResultSchema),
  total_results: z.int(),
  processing_time_ms: z.int(),
  engines_failed: z.array(z.string()).describe('Extension'),
});

const corpusSummarySchema = z.object({
  corpus_id: z.string(),
  topic: z.string(),
  status: z.enum(CORPUS_STATUSES),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  counts: z.object({ sources: z.int(), chunks: z.int() }),
  parameters: z.record(z.string(), z.unknown()),
  queries_planned: z.array(z.string()),
  queries_executed: z.array(z.string()),
  embedding_model: z.string(),
});

export const corporaListOutputSchema = z.object({ corpora: z.array(corpusSummarySchema), total: z.int() });

export const corpusIdInputSchema = z.strictObject({ corpus_id: corpusIdSchema });

export const corpusGetOutputSchema = corpusSummarySchema.extend({
  sources: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      title: z.string(),
      summary: z.string(),
      word_count: z.int(),
      engine: z.string(),
      scraped_at: z.string(),
      relevance_score: z.number(),
      chunks: z.int(),
    }),
  ),
});

export const corpusDeleteOutputSchema = z.object({
  corpus_id: z.string(),
  deleted: z.literal(true),
  sources_deleted: z.int(),
  chunks_deleted: z.int(),
});

/** The longest text rag/corpora/add accepts (per text). */
export const MAX_ADDED_TEXT_CHARS = 500_000;

export const corpusAddInputSchema = z
  .strictObject({
    corpus_id: corpusIdSchema,
    urls: z.array(httpUrlSchema).min(1).max(20).optional(),
    texts: z
      .array(
        z.strictObject({
          text: z.string().trim().min(1, 'must not be empty').max(MAX_ADDED_TEXT_CHARS),
          title: z.string().trim().max(500).optional(),
          url: httpUrlSchema.optional(),
        }),
      )
      .min(1)
      .max(20)
      .optional(),
  })
  .refine((i) => i.urls !== undefined || i.texts !== undefined, {
    message: 'give urls, texts or both',
    path: ['urls'],
  });

export const corpusAddOutputSchema = z.object({
  corpus_id: z.string(),
  added: z.array(z.object({ id: z.string(), url: z.string(), title: z.string(), chunks: z.int() })),
  failed: z.array(z.object({ url: z.string(), error: z.string() })),
  counts: z.object({ sources: z.int(), chunks: z.int() }),
});

export const corpusResumeInputSchema = z.strictObject({ corpus_id: corpusIdSchema, async: z.boolean().default(false) });

export const ragJobInputSchema = z.strictObject({
  job_id: z
    .string()
    .max(68)
    .regex(/^job_[a-f0-9]{8,64}$/, 'must be a job id like job_…'),
});
