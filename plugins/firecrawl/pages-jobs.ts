/**
 * The job plumbing crawl and batch scrape share: one job surface per kind
 * (services/jobs/job-capability.ts: submit, the caller's own jobs only, one
 * 404 for unknown and foreign ids), Firecrawl's accepting answer
 * (`{success, id, url}`, 200), and the status, cancel and errors routes.
 */
import type { CallContext } from '../../core/capability.js';
import { defineCapability } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { jobSurface, type JobSurface } from '../../services/jobs/job-capability.js';
import type { JobRecord } from '../../services/jobs/types.js';
import type { FirecrawlServices } from './uses.js';
import {
  cancelOutputSchema,
  crawlErrorsOutputSchema,
  crawlStartedSchema,
  crawlStatusOutputSchema,
  jobIdInputSchema,
  statusInputSchema,
} from './crawl-schema.js';
import { firecrawlErrorReply } from './envelope.js';
import { CRAWL_TIME_BUDGET_MS } from './crawl-run.js';
import { JobPages } from './job-pages.js';
import { pagesStatus, statusPath, statusWordOf } from './job-status.js';
import { FIRECRAWL_MOUNT, firecrawlRoute, type FirecrawlVersion } from './routes.js';

export type PagesSurface = JobSurface<
  typeof crawlStartedSchema,
  typeof crawlStatusOutputSchema,
  typeof jobIdInputSchema
>;

export interface PagesJobs {
  pages: JobPages;
  keepFinishedMs: number;
  crawl: PagesSurface;
  batch: PagesSurface;
}

/** What the job's stored input says about how it was asked for. */
interface StoredInput {
  version: FirecrawlVersion;
  invalidURLs?: string[];
}

const storedInput = (job: JobRecord): StoredInput => job.input as StoredInput;

export function jobPagesOf(services: FirecrawlServices): { pages: JobPages; keepFinishedMs: number } {
  const keepFinishedMs = services.config.jobs.keepFinishedHours * 3600_000;
  // Kept past the job's own expiry by the longest a crawl may run, so no document expires before its job.
  return { pages: new JobPages(services.stores.records, keepFinishedMs + CRAWL_TIME_BUDGET_MS), keepFinishedMs };
}

export function pagesJobs(services: FirecrawlServices, kinds: { crawl: string; batch: string }): PagesJobs {
  const { pages, keepFinishedMs } = jobPagesOf(services);
  const surface = (kind: string, isBatch: boolean): PagesSurface => {
    const what = isBatch ? 'batch scrape' : 'crawl';
    return jobSurface(services.jobs, {
      kind,
      idPrefix: isBatch ? 'batch_' : 'crawl_',
      form: {
        accepted: crawlStartedSchema,
        // Firecrawl answers a started job with 200, which its clients require.
        acceptedHttpStatus: 200,
        statusUrlField: 'url',
        toAccepted: (job, statusUrl) => {
          const input = storedInput(job);
          // The status route is declared once (v2); a v1 job is polled at v1's.
          const url = statusUrl.replace(`${FIRECRAWL_MOUNT}/v2/`, `${FIRECRAWL_MOUNT}/${input.version}/`);
          return {
            success: true as const,
            id: job.id,
            url,
            ...(isBatch ? { invalidURLs: input.invalidURLs ?? [] } : {}),
          };
        },
        status: crawlStatusOutputSchema,
        toStatus: (job) =>
          pagesStatus(pages, job, { skip: 0, statusUrl: statusPath('v2', isBatch, job.id) }, keepFinishedMs),
      },
      statusRoute: {
        id: `firecrawl.${isBatch ? 'batch' : 'crawl'}_status_v2`,
        title: `${what} status (Firecrawl v2)`,
        description: `A Firecrawl ${what}'s status and documents`,
        mcpTool: `firecrawl_${isBatch ? 'batch' : 'crawl'}_status`,
        path: `${FIRECRAWL_MOUNT}/v2/${isBatch ? 'batch/scrape' : 'crawl'}/:id`,
        idField: 'id',
        input: jobIdInputSchema,
        noun: `${what} job`,
      },
    });
  };
  return { pages, keepFinishedMs, crawl: surface(kinds.crawl, false), batch: surface(kinds.batch, true) };
}

/**
 * v1's start capabilities are served without the job declaration: their status route (v1's /crawl/:id) also
 * answers batch ids, which a declared job's status route may not (one kind per status route).
 */
export function withoutJobDeclaration<C extends { job?: unknown }>(capability: C): Omit<C, 'job'> {
  const { job: _job, ...plain } = capability;
  return plain;
}

/**
 * Reads the job through the first surface that has it (v1's /crawl/:id also answers batch ids); else the first's 404.
 */
async function readAny(
  surfaces: PagesSurface[],
  id: string,
  ctx: CallContext,
): Promise<{ job: JobRecord; surface: PagesSurface }> {
  let first: unknown;
  for (const surface of surfaces) {
    try {
      return { job: await surface.read(id, ctx), surface };
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      first ??= error;
    }
  }
  throw first;
}

export interface RouteSet {
  jobs: PagesJobs;
  version: FirecrawlVersion;
  /** `/crawl` or `/batch/scrape`. */
  route: string;
  /** Which surfaces the route reads, the route's own first. */
  surfaces: PagesSurface[];
  name: 'crawl' | 'batch';
}

const batchOf = (set: RouteSet, surface: PagesSurface): boolean => surface === set.jobs.batch;

export function statusCapability(set: RouteSet) {
  const { jobs, version } = set;
  // v2's status route reads its own kind only: it is the surface's status capability (the job contract, MCP tasks).
  // v1's /crawl/:id also reads batch ids, so it is served beside the surface rather than declared on it.
  const declared = version === 'v2' && set.surfaces.length === 1 ? { job: set.surfaces[0]!.job } : {};
  return defineCapability({
    ...declared,
    id: `firecrawl.${set.name}_status_${version}`,
    title: `${set.name === 'crawl' ? 'Crawl' : 'Batch scrape'} status (Firecrawl ${version})`,
    description:
      "Firecrawl's job status: `scraping`, `completed`, `failed` or `cancelled`, the counts, and a page of " +
      'the documents read so far ' +
      '(`skip`, `limit`); `next` is the absolute URL of the following page while more follow.',
    input: statusInputSchema,
    output: crawlStatusOutputSchema,
    http: { method: 'GET', ...firecrawlRoute(version, `${set.route}/:id`), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(input, ctx) {
      const { job, surface } = await readAny(set.surfaces, input.id, ctx);
      const path = statusPath(version, batchOf(set, surface), job.id);
      return pagesStatus(
        jobs.pages,
        job,
        {
          skip: input.skip,
          ...(input.limit !== undefined ? { limit: input.limit } : {}),
          statusUrl: `${ctx.baseUrl ?? ''}${path}`,
        },
        jobs.keepFinishedMs,
      );
    },
  });
}

export function cancelCapability(set: RouteSet) {
  const { version } = set;
  return defineCapability({
    id: `firecrawl.${set.name}_cancel_${version}`,
    title: `Cancel a ${set.name === 'crawl' ? 'crawl' : 'batch scrape'} (Firecrawl ${version})`,
    description:
      'Stops the job: no page is read after it; the documents read so far stay readable. Answers `{status: ' +
      '"cancelled"}`.',
    input: jobIdInputSchema,
    output: cancelOutputSchema,
    http: { method: 'DELETE', ...firecrawlRoute(version, `${set.route}/:id`), errorReply: firecrawlErrorReply },
    async handler(input, ctx) {
      const { job, surface } = await readAny(set.surfaces, input.id, ctx);
      const after = await surface.job.cancel(job.id, ctx);
      return { success: true as const, status: statusWordOf(after as JobRecord) };
    },
  });
}

export function errorsCapability(set: RouteSet) {
  const { jobs, version } = set;
  // firecrawl-js v1 asks for a crawl's errors with DELETE: served too.
  const methods = version === 'v1' ? (['GET', 'DELETE'] as const) : (['GET'] as const);
  return methods.map((method) =>
    defineCapability({
      id: `firecrawl.${set.name}_errors_${version}${method === 'DELETE' ? '_delete' : ''}`,
      title: `${set.name === 'crawl' ? 'Crawl' : 'Batch scrape'} errors (Firecrawl ${version})`,
      description:
        "The job's pages that could not be read (`errors`) and the URLs robots.txt kept it from " +
        '(`robotsBlocked`, never requested).',
      input: jobIdInputSchema,
      output: crawlErrorsOutputSchema,
      http: { method, ...firecrawlRoute(version, `${set.route}/:id/errors`), errorReply: firecrawlErrorReply },
      readOnly: true,
      async handler(input, ctx) {
        const { job } = await readAny(set.surfaces, input.id, ctx);
        const state = await jobs.pages.state(job.id);
        return { errors: state.errors, robotsBlocked: state.robotsBlocked };
      },
    }),
  );
}
