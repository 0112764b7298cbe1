/**
 * POST /api/v1/enhanced/search: the Search API plus Crawl4AI-style page work
 * on each result — extraction strategies (cosine, json_css, regex, llm),
 * content filters (pruning, bm25, llm), markdown, adaptive crawling, virtual
 * scrolling and link analysis. The work lives in ./search/; this file only
 * declares the capabilities (docs/enhanced-search.md).
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { JobHandler, PluginServices } from '../../app/plugin-services.js';
import { noteUnusedWebhook, publicJob, submitSearchJob } from '../../services/web-search/job-view.js';
import { asyncAcceptedSchema, jobStatusInputSchema, jobStatusOutputSchema, searchFieldAliases } from '../../services/web-search/schemas.js';
import { jobWebhookState } from '../../services/webhooks/job-webhooks.js';
import { prepareRequest } from './search/prepare.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { renderEnhancedMarkdown } from './search/render.js';
import { runEnhancedSearch } from './search/run.js';
import { enhancedAnswerSchema, enhancedOutputSchema, enhancedResultSchema, enhancedSearchInputSchema, type EnhancedAnswer, type EnhancedSearchInput } from './search/schemas.js';

export const ENHANCED_SEARCH_JOB = 'enhanced.search';

export function enhancedSearchCapability(services: PluginServices) {
  return defineCapability({
    id: 'enhanced.search',
    title: 'Search with page extraction',
    description:
      'Web search (every Search API parameter) plus work on each result page: extraction_strategy (cosine clusters by meaning, json_css selector schema, regex patterns, llm schema-guided), ' +
      'content_filter (pruning of boilerplate, bm25 relevance, llm), markdown_generation, adaptive_crawling (follow the most relevant in-site links until pages stop adding information), ' +
      'virtual_scrolling (browser) and link_analysis (every link scored for relevance). Per-result failures are reported on the result.',
    input: enhancedSearchInputSchema,
    output: enhancedOutputSchema,
    http: {
      method: 'POST',
      path: '/api/v1/enhanced/search',
      accepted: { output: asyncAcceptedSchema, is: (out) => !('results' in (out as object)) },
      fieldAliases: searchFieldAliases,
    },
    mcpTool: 'enhanced_search',
    readOnly: true,
    toMarkdown: (out) => ('results' in out ? (out.markdown ?? renderEnhancedMarkdown(out, outboundLinkPolicy(services.config.outbound))) : `Enhanced search accepted: ${out.job_id} (${out.status}; poll ${out.status_url})`),
    async handler(input, ctx) {
      // Checked before anything runs, also for async requests: bad input is a 400 now, not a failed job later.
      const prepared = await prepareRequest(services, input);
      await services.searchHistory.record(ctx.caller, [input.query]);
      if (!input.async_mode) return noteUnusedWebhook(await runEnhancedSearch(services, input, ctx, prepared), input.webhook_url);
      return submitSearchJob(services, ENHANCED_SEARCH_JOB, input, (id) => `/api/v1/enhanced/search/jobs/${id}`, ctx.baseUrl, ctx.caller);
    },
  });
}

/** The background runner for async_mode; register under the plugin's jobHandlers. */
export function enhancedSearchJobHandlers(services: PluginServices): Record<string, JobHandler> {
  return {
    [ENHANCED_SEARCH_JOB]: (input, job) =>
      runEnhancedSearch(services, input as EnhancedSearchInput, { signal: job.signal, logger: services.logger, progress: job.progress, host: 'job' }),
  };
}

/** The Search API's job view, with the enhanced answer as its result. */
const enhancedJobStatusSchema = jobStatusOutputSchema.extend({ results: z.array(enhancedResultSchema).optional(), result: enhancedAnswerSchema.optional() });

/** GET /api/v1/enhanced/search/jobs/:request_id — status and answer of an async enhanced search. */
export function enhancedSearchJobStatusCapability(services: PluginServices) {
  return defineCapability({
    id: 'enhanced.search_job_status',
    title: 'Async enhanced search status',
    description: 'Status and, once finished, the answer of an enhanced search started with async_mode.',
    input: jobStatusInputSchema,
    output: enhancedJobStatusSchema,
    http: { method: 'GET', path: '/api/v1/enhanced/search/jobs/:request_id' },
    mcpTool: 'enhanced_search_job_status',
    readOnly: true,
    async handler(input, ctx) {
      const job = await services.jobs.getFor(input.request_id, ctx.caller);
      if (!job || job.kind !== ENHANCED_SEARCH_JOB) throw new AppError('NOT_FOUND', `no enhanced search job ${input.request_id}`);
      return publicJob<EnhancedAnswer>(job, await jobWebhookState(services.webhooks, job));
    },
  });
}
