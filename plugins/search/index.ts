/** The search area: web search, batch search, the engine catalogue and async job status. */
import { SEARCH_USES } from './uses.js';
import { randomBytes } from 'node:crypto';
import { defineCapability, type CallContext } from '../../core/capability.js';
import { AppError, toAppError } from '../../core/errors.js';
import { definePlugin } from '../../app/plugin-services.js';
import { autocompleteCapability } from './autocomplete.js';
import { jobSurface } from '../../services/jobs/job-capability.js';
import { noteUnusedWebhook, searchJobForm, searchJobSubmission } from '../../services/web-search/job-view.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import { renderJobAccepted } from '../../services/markdown/job-state.js';
import { renderSearchMarkdown } from '../../services/web-search/render-markdown.js';
import {
  batchInputSchema,
  batchOutputSchema,
  enginesInputSchema,
  enginesOutputSchema,
  jobStatusInputSchema,
  jobStatusOutputSchema,
  searchFieldAliases,
  searchAnswerSchema,
  searchInputSchema,
  type SearchAnswer,
  type SearchInput,
} from '../../services/web-search/schemas.js';

const SEARCH_JOB = 'search.web';

export default definePlugin({
  uses: SEARCH_USES,
  jobHandlers(services) {
    return {
      [SEARCH_JOB]: (input, job) =>
        services.webSearch.search(input as SearchInput, {
          signal: job.signal,
          logger: services.logger,
          progress: job.progress,
          host: 'job',
        }),
    };
  },

  setup(services) {
    const { webSearch } = services;

    const searchJobs = jobSurface(services.jobs, {
      kind: SEARCH_JOB,
      idPrefix: 'req_',
      form: searchJobForm(services.webhooks, jobStatusOutputSchema),
      statusRoute: {
        id: 'search.job_status',
        title: 'Async search status',
        description: 'Status and, once finished, the answer of a search started with async_mode.',
        mcpTool: 'search_job_status',
        path: '/api/v1/search/jobs/:request_id',
        // /status/{job_id} is the path clients of the original service poll.
        aliases: ['/api/v1/search/status/:request_id'],
        idField: 'request_id',
        input: jobStatusInputSchema,
        noun: 'search job',
      },
    });

    const web = searchJobs.capability({
      id: 'search.web',
      title: 'Web search',
      description:
        'Search the web through several engines at once. Results are merged across engines (duplicates ' +
        'combined, every engine kept), ' +
        'filtered for relevance, and optionally scraped for their full text. Reports which engines failed and why.',
      input: searchInputSchema,
      output: searchAnswerSchema,
      http: { method: 'POST', path: '/api/v1/search/', fieldAliases: searchFieldAliases },
      mcpTool: 'search_web',
      readOnly: true,
      sharedInput: true,
      toMarkdown: (answer) => {
        const out = answer as SearchAnswer | { job_id: string; status: string; status_url: string };
        if ('markdown' in out && out.markdown) return out.markdown;
        if ('results' in out)
          return renderSearchMarkdown(
            { ...out, query: out.search_metadata.query },
            { linkPolicy: webSearch.linkPolicy },
          );
        return renderJobAccepted('Search', out);
      },
      async prepare(input, ctx) {
        if (input.engines) webSearch.assertKnownEngines(input.engines);
        await services.searchHistory.record(ctx.caller, [input.query]);
      },
      runsAsJob: (input) => input.async_mode,
      run: async (input, ctx) => noteUnusedWebhook(await webSearch.search(input, ctx), input.webhook_url),
      submission: (input) => searchJobSubmission(services.webhooks, input),
    });

    const batch = defineCapability({
      id: 'search.batch',
      title: 'Batch web search',
      description:
        'Run up to 100 searches in one call, a bounded number in parallel. Per-query failures are reported ' +
        'in errors and queries_failed.',
      input: batchInputSchema,
      output: batchOutputSchema,
      http: { method: 'POST', path: '/api/v1/search/batch' },
      mcpTool: 'search_batch',
      readOnly: true,
      async handler(input, ctx) {
        const started = performance.now();
        const engines = input.engines ?? [services.config.search.defaultSingleEngine];
        webSearch.assertKnownEngines(engines);
        const queries = [...new Set(input.queries)];
        await services.searchHistory.record(ctx.caller, queries);
        const results: Record<string, Array<{ title: string; url: string; snippet: string }>> = {};
        const errors: Record<string, string> = {};
        let next = 0;
        let done = 0;
        const deadline = performance.now() + input.timeout * 1000;
        // Each query's search reports no progress of its own: the batch reports one step per query. Named field by
        // field, not spread: a host's context may keep its parts on its prototype (hosts/http/http-call-context.ts).
        const perQuery: CallContext = {
          signal: ctx.signal,
          logger: ctx.logger,
          host: ctx.host,
          progress: () => undefined,
          ...(ctx.caller ? { caller: ctx.caller } : {}),
        };
        const worker = async (): Promise<void> => {
          while (next < queries.length && !ctx.signal.aborted) {
            const query = queries[next++]!;
            try {
              const remaining = Math.max(1, Math.min(120, (deadline - performance.now()) / 1000));
              const answer = (await webSearch.search(
                searchInputSchema.parse({
                  query,
                  engines,
                  max_results: input.max_results_per_query,
                  scrape_content: input.scrape_content,
                  language: input.language,
                  safe_search: input.safe_search,
                  timeout: remaining,
                  relevance_filter: false,
                }),
                perQuery,
              )) as SearchAnswer;
              if (answer.search_metadata.engines_succeeded.length === 0) {
                const reasons = Object.entries(answer.search_metadata.engine_errors).map(
                  ([e, err]) => `${e}: ${err.message}`,
                );
                errors[query] = `every engine failed (${reasons.join('; ')})`;
              }
              results[query] = answer.results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet }));
            } catch (error) {
              errors[query] = toAppError(error).message;
              // Every query keeps its key (spec: results maps each query string); the reason is in errors.
              results[query] = [];
            }
            done++;
            ctx.progress({ progress: done, total: queries.length, message: `query ${done} of ${queries.length}` });
          }
        };
        await Promise.all(Array.from({ length: Math.min(input.parallel_requests, queries.length) }, worker));
        if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the batch was cancelled');
        return {
          batch_id: `batch_${randomBytes(12).toString('hex')}`,
          queries_processed: queries.length - Object.keys(errors).length,
          queries_failed: Object.keys(errors).length,
          results,
          processing_time_ms: Math.round(performance.now() - started),
          errors,
        };
      },
    });

    const engines = defineCapability({
      id: 'search.engines',
      title: 'Engine catalogue',
      description:
        'List every search engine with its categories, languages, support flags, and run-time state ' +
        '(suspension, recent error rate).',
      input: enginesInputSchema,
      output: enginesOutputSchema,
      http: { method: 'GET', path: '/api/v1/search/engines' },
      mcpTool: 'search_engines',
      readOnly: true,
      toMarkdown: (out) =>
        [`# ${out.total_engines} engines (${out.enabled_engines} enabled)`, '']
          .concat(
            Object.values(out.engines).map(
              (e) =>
                `- **${escapeMarkdownText(e.name)}** (${escapeMarkdownText(e.categories.join(', '))})${e.enabled ? '' : ' — disabled'}${(e as { suspended_until?: string | null }).suspended_until ? ' — suspended' : ''}`,
            ),
          )
          .join('\n'),
      async handler() {
        const ids = services.engines.ids();
        const entries = Object.fromEntries(
          await Promise.all(ids.map(async (id) => [id, await services.engines.runtimeEntry(id)] as const)),
        );
        return {
          engines: entries as Record<string, (typeof entries)[string] & Record<string, unknown>>,
          total_engines: ids.length,
          enabled_engines: ids.filter((id) => entries[id]!.enabled).length,
        };
      },
    });

    const jobStatus = searchJobs.statusCapability();

    return [web, batch, engines, jobStatus, autocompleteCapability(services.engines)];
  },
});
