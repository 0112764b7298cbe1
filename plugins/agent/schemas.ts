/**
 * Input and output shapes of the agent area (spec: "Agent API"). The request
 * and response formats follow Tavily's, so the official clients work against
 * these routes: the Tavily fields Quarry honours are declared with their
 * meaning, and the ones it has no use for are declared too ("accepted, no
 * effect") so a client that sends them is never refused.
 */
import { z } from 'zod';
import { domainFilterSchema, httpUrlSchema } from '../../core/field-schemas.js';
import { TOPICS } from './topics.js';

export const SEARCH_DEPTHS = ['basic', 'advanced', 'fast', 'ultra-fast'] as const;
export type SearchDepth = (typeof SEARCH_DEPTHS)[number];
export const MODELS = ['auto', 'speed', 'quality', 'reasoning', 'production'] as const;
export const QUERY_COMPLEXITIES = ['simple', 'moderate', 'complex'] as const;
export const RESEARCH_DEPTHS = ['quick', 'standard', 'deep', 'comprehensive'] as const;
export type ResearchDepth = (typeof RESEARCH_DEPTHS)[number];

const isoDay = z.iso.date().max(10).describe('YYYY-MM-DD');
const accepted = (what: string) => `Accepted for Tavily compatibility; ${what}`;

export const agentSearchInputSchema = z
  .strictObject({
    query: z.string().trim().min(1, 'must not be empty').max(2000),
    search_depth: z.enum(SEARCH_DEPTHS).default('basic').describe('What each depth does: docs/agent.md'),
    max_results: z.int().min(1).max(20).default(5),
    topic: z
      .enum(TOPICS)
      .default('general')
      .describe('general: the default web engines; news: news engines; finance: finance and news engines'),
    include_answer: z
      .union([z.boolean(), z.enum(['basic', 'advanced', 'production'])])
      .default(false)
      .describe('true/basic: a short cited answer; advanced/production: a longer one'),
    include_raw_content: z
      .union([z.boolean(), z.enum(['markdown', 'text'])])
      .default(false)
      .describe('true/markdown: each page as markdown; text: plain text'),
    include_images: z.boolean().default(false),
    include_image_descriptions: z.boolean().default(false),
    include_domains: z.array(domainFilterSchema).max(300).optional(),
    exclude_domains: z.array(domainFilterSchema).max(300).optional(),
    rerank: z
      .boolean()
      .default(false)
      .describe("Order results by passage relevance instead of the engines' merged order (always on for advanced)"),
    model: z
      .enum(MODELS)
      .optional()
      .describe(
        'LLM tier for the answer: speed → fast tier; quality, reasoning, production → quality tier; auto → ' +
          'by query complexity',
      ),
    check_safety: z
      .boolean()
      .default(false)
      .describe(
        'Refuse prompt injections and harmful requests (UNSAFE_QUERY) and flag instructions aimed at agents in pages',
      ),
    // Tavily fields with a meaning here.
    time_range: z
      .enum(['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y'])
      .optional()
      .describe('Passed to engines that support a time range'),
    days: z
      .int()
      .min(1)
      .max(3650)
      .optional()
      .describe('Results from the last N days: coarse range for the engines, and results dated earlier are dropped'),
    start_date: isoDay.optional().describe('Results dated before this are dropped (undated results are kept)'),
    end_date: isoDay.optional().describe('Results dated after this are dropped (undated results are kept)'),
    max_hours: z.number().positive().max(87_600).optional().describe('Like days, in hours'),
    chunks_per_source: z
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('Passages per result in content (default 1; 3 for advanced)'),
    include_favicon: z.boolean().default(false),
    country: z
      .string()
      .trim()
      .min(2)
      .max(60)
      .optional()
      .describe('Country name or ISO code, passed to engines as the region'),
    language: z
      .string()
      .max(16)
      .regex(/^([a-z]{2,3}(-[A-Za-z]{2,4})?|all)$/, 'must be a language code such as "en" or "all"')
      .optional()
      .describe('Engine language; default en'),
    auto_parameters: z
      .boolean()
      .default(false)
      .describe('Pick topic and depth from the query (explicit non-default values win)'),
    exact_match: z.boolean().default(false).describe('Only results containing every "quoted phrase" of the query'),
    fetch_timeout: z.number().min(1).max(60).optional().describe('Seconds the page reading may take'),
    timeout: z
      .number()
      .min(1)
      .max(120)
      .optional()
      .describe('Extension: seconds for the whole search (default by depth)'),
    include_usage: z.boolean().optional().describe(accepted('no effect (nothing is metered)')),
    include_domains_mode: z.string().max(40).optional().describe(accepted('no effect')),
    cache_fallback: z.boolean().optional().describe(accepted('no effect')),
    filter_by_language: z.boolean().optional().describe(accepted('no effect')),
  })
  .refine((i) => !(i.start_date && i.end_date) || i.start_date <= i.end_date, {
    message: 'start_date must not be after end_date',
    path: ['start_date'],
  });
export type AgentSearchInput = z.infer<typeof agentSearchInputSchema>;

const imageSchema = z.union([z.string(), z.object({ url: z.string(), description: z.string().nullable() })]);

export const agentResultSchema = z.object({
  id: z
    .string()
    .describe(
      "The result's id, as Tavily's clients type it: derived from the URL (a UUID-shaped digest), so the " +
        'same page keeps its id across searches',
    ),
  title: z.string(),
  url: z.string(),
  content: z
    .string()
    .describe('The passage(s) of the page that best answer the query; the engine snippet when the page was not read'),
  score: z.number().describe('Calibrated relevance 0..1, comparable across queries (docs/agent.md)'),
  raw_content: z
    .string()
    .optional()
    .describe('The page (markdown or text) when include_raw_content asks and the page was read; else absent'),
  published_date: z.string().optional(),
  favicon: z.string().optional().describe('With include_favicon, when the page has one (absent otherwise)'),
  read: z.boolean().describe('Extension: whether the page was read (only read pages are cited)'),
  engines: z.array(z.string()).describe('Extension: engines that found it'),
  safety: z
    .object({ flagged: z.boolean(), reasons: z.array(z.string()) })
    .optional()
    .describe('Extension (check_safety): instructions aimed at an agent found in the page; flagged, never followed'),
});

export const agentSearchOutputSchema = z.object({
  query: z.string(),
  answer: z.string().nullable().describe('Null unless include_answer; cites results as [n] (1-based)'),
  images: z.array(imageSchema),
  results: z.array(agentResultSchema),
  response_time: z.number().describe('Seconds'),
  model_used: z
    .string()
    .describe(
      'The LLM that wrote the answer, "extractive", or "none" when no answer was asked; followed by ", ' +
        'reranked by <model>" when a configured cross-encoder (models.reranker) ordered the passages',
    ),
  query_complexity: z.enum(QUERY_COMPLEXITIES),
  request_id: z.string(),
  search_depth: z.enum(SEARCH_DEPTHS).describe('Extension: the depth used'),
  topic: z.enum(TOPICS).describe('Extension: the topic used'),
  auto_parameters: z.object({ topic: z.enum(TOPICS), search_depth: z.enum(SEARCH_DEPTHS) }).optional(),
  failed_results: z
    .array(z.object({ url: z.string(), error: z.string() }))
    .describe('Extension: pages that could not be read, with the reason'),
  engines_failed: z.array(z.string()).describe('Extension'),
  follow_up_questions: z.null().describe('Tavily field; always null'),
});
export type AgentSearchOutput = z.infer<typeof agentSearchOutputSchema>;

export const urlSchema = httpUrlSchema;

export const agentExtractInputSchema = z.strictObject({
  urls: z.array(urlSchema).min(1, 'give at least one URL').max(20, 'at most 20 URLs'),
  include_images: z.boolean().default(false),
  extract_depth: z
    .enum(['basic', 'advanced'])
    .default('basic')
    .describe('basic: static fetch; advanced: rendered with JavaScript'),
  format: z
    .enum(['markdown', 'text'])
    .default('markdown')
    .describe('raw_content as markdown (tables kept) or plain text'),
  query: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .describe("With a query, raw_content is the page's passages most relevant to it"),
  chunks_per_source: z.int().min(1).max(5).optional().describe('Passages per page when a query is given (default 3)'),
  include_favicon: z.boolean().default(false),
  timeout: z.number().min(1).max(120).optional().describe('Seconds for the whole call (default 30; 60 for advanced)'),
  include_usage: z.boolean().optional().describe(accepted('no effect')),
});
export type AgentExtractInput = z.infer<typeof agentExtractInputSchema>;

export const agentExtractOutputSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().nullable(),
      raw_content: z.string(),
      images: z.array(z.string()),
      failed: z.boolean(),
      error: z.string().nullable().describe('Extension: why the page could not be read'),
      favicon: z.string().optional().describe('With include_favicon, when the page has one (absent otherwise)'),
    }),
  ),
  failed_urls: z.array(z.string()),
  failed_results: z.array(z.object({ url: z.string(), error: z.string() })),
  response_time: z.number().describe('Seconds'),
  request_id: z.string(),
  javascript_rendering: z
    .boolean()
    .describe('Extension: whether pages were rendered with JavaScript (advanced, when a browser is available)'),
});
export type AgentExtractOutput = z.infer<typeof agentExtractOutputSchema>;

export const agentResearchInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(2000),
  depth: z
    .enum(RESEARCH_DEPTHS)
    .default('standard')
    .describe('Sub-questions, pages and rounds per depth: docs/agent.md'),
  max_sources: z.int().min(1).max(50).default(10),
  include_analysis: z.boolean().default(true),
  include_summary: z.boolean().default(true),
  focus_areas: z.array(z.string().trim().min(1).max(200)).min(1).max(8).optional(),
  topic: z.enum(TOPICS).default('general').describe('Extension: which engines (as for search)'),
  async: z
    .boolean()
    .default(false)
    .describe('Extension: answer at once with a job id and status URL; the report is kept with the job'),
  timeout: z
    .number()
    .min(5)
    .max(900)
    .optional()
    .describe('Extension: seconds for the whole research (default by depth)'),
});
export type AgentResearchInput = z.infer<typeof agentResearchInputSchema>;

export const methodologySchema = z.object({
  queries_executed: z.int(),
  sources_analyzed: z.int().describe('Pages read and kept (after deduplication)'),
  depth: z.enum(RESEARCH_DEPTHS),
  rounds: z.int(),
  sub_questions: z.array(z.string()),
  queries: z.array(z.string()),
  planned_by: z.string().describe('The LLM that planned the sub-questions, or "templates"'),
  pages_failed: z.int(),
  duplicates_removed: z.int(),
  failures: z.array(z.object({ url: z.string(), stage: z.string(), reason: z.string() })),
  engines_failed: z.array(z.string()),
  unanswered: z.array(z.string()).describe('Sub-questions no source answered'),
});

export const agentResearchReportSchema = z.object({
  query: z.string(),
  executive_summary: z.string(),
  detailed_analysis: z.string().describe('Markdown: one section per sub-question, every claim cited [n] → sources'),
  key_findings: z.array(z.string()),
  sources: z.array(z.object({ title: z.string(), url: z.string(), content: z.string(), score: z.number() })),
  methodology: methodologySchema,
  model_used: z.string(),
  response_time: z.number().describe('Seconds'),
});
export type AgentResearchReport = z.infer<typeof agentResearchReportSchema>;

/** The id of one of the area's jobs (research, crawl, map), as its status route takes it. */
export const agentJobInputSchema = z.strictObject({
  job_id: z
    .string()
    .max(68)
    .regex(/^job_[a-f0-9]{8,64}$/, 'must be a job id like job_…'),
});
