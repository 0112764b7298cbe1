/**
 * POST /api/v1/enhanced/search: the Search API plus Crawl4AI-style page work
 * on each result — extraction strategies (cosine, json_css, regex, llm),
 * content filters (pruning, bm25, llm), markdown, adaptive crawling, virtual
 * scrolling and link analysis. The work lives in ./search/; this file only
 * declares the capabilities (docs/enhanced-search.md).
 */
import type { EnhancedServices } from './uses.js';
import { z } from 'zod';
import type { JobHandler } from '../../app/plugin-services.js';
import type { AnyCapability } from '../../core/capability.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import { renderJobAccepted } from '../../services/markdown/job-state.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { noteUnusedWebhook, searchJobForm, searchJobSubmission } from '../../services/web-search/job-view.js';
import { jobStatusInputSchema, jobStatusOutputSchema, searchFieldAliases } from '../../services/web-search/schemas.js';
import { prepareRequest } from './search/prepare.js';
import { renderEnhancedMarkdown } from './search/render.js';
import { runEnhancedSearch } from './search/run.js';
import {
  enhancedAnswerSchema,
  enhancedResultSchema,
  enhancedSearchInputSchema,
  type EnhancedAnswer,
  type EnhancedSearchInput,
} from './search/schemas.js';

export const ENHANCED_SEARCH_JOB = 'enhanced.search';

/** The Search API's job view, with the enhanced answer as its result. */
const enhancedJobStatusSchema = jobStatusOutputSchema.extend({
  results: z.array(enhancedResultSchema).optional(),
  result: enhancedAnswerSchema.optional(),
});

/** POST /api/v1/enhanced/search, and GET /api/v1/enhanced/search/jobs/:request_id for its async_mode jobs. */
export function enhancedSearchCapabilities(services: EnhancedServices): AnyCapability[] {
  const searchJobs = jobSurface(services.jobs, {
    kind: ENHANCED_SEARCH_JOB,
    idPrefix: 'req_',
    form: searchJobForm(services.webhooks, enhancedJobStatusSchema),
    statusRoute: {
      id: 'enhanced.search_job_status',
      title: 'Async enhanced search status',
      description: 'Status and, once finished, the answer of an enhanced search started with async_mode.',
      mcpTool: 'enhanced_search_job_status',
      path: '/api/v1/enhanced/search/jobs/:request_id',
      idField: 'request_id',
      input: jobStatusInputSchema,
      noun: 'enhanced search job',
    },
  });
  const search = searchJobs.capability({
    id: 'enhanced.search',
    title: 'Search with page extraction',
    description:
      'Web search (every Search API parameter) plus work on each result page: extraction_strategy (cosine ' +
      'clusters by meaning, json_css selector schema, regex patterns, llm schema-guided), ' +
      'content_filter (pruning of boilerplate, bm25 relevance, llm), markdown_generation, adaptive_crawling ' +
      '(follow the most relevant in-site links until pages stop adding information), ' +
      'virtual_scrolling (browser) and link_analysis (every link scored for relevance). Per-result failures ' +
      'are reported on the result.',
    input: enhancedSearchInputSchema,
    output: enhancedAnswerSchema,
    http: { method: 'POST', path: '/api/v1/enhanced/search', fieldAliases: searchFieldAliases },
    mcpTool: 'enhanced_search',
    readOnly: true,
    toMarkdown: (answer) => {
      const out = answer as EnhancedAnswer | { job_id: string; status: string; status_url: string };
      return 'results' in out
        ? (out.markdown ?? renderEnhancedMarkdown(out, outboundLinkPolicy(services.config.outbound)))
        : renderJobAccepted('Enhanced search', out);
    },
    // Checked before anything runs, also for async requests: bad input is a 400 now, not a failed job later.
    async prepare(input, ctx) {
      const prepared = await prepareRequest(services, input);
      await services.searchHistory.record(ctx.caller, [input.query]);
      return prepared;
    },
    runsAsJob: (input) => input.async_mode,
    run: async (input, ctx, prepared) =>
      noteUnusedWebhook(await runEnhancedSearch(services, input, ctx, prepared), input.webhook_url),
    submission: (input) => searchJobSubmission(services.webhooks, input),
  });
  return [search, searchJobs.statusCapability()];
}

/** The background runner for async_mode; register under the plugin's jobHandlers. */
export function enhancedSearchJobHandlers(services: EnhancedServices): Record<string, JobHandler> {
  return {
    [ENHANCED_SEARCH_JOB]: (input, job) =>
      runEnhancedSearch(services, input as EnhancedSearchInput, {
        signal: job.signal,
        logger: services.logger,
        progress: job.progress,
        host: 'job',
      }),
  };
}
