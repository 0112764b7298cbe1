/**
 * POST /v2/crawl and /v1/crawl: a durable crawl job (crawl-run.ts) answered
 * with `{success, id, url}`; GET /crawl/active lists the caller's crawls
 * still running. Status, cancel and errors are pages-jobs.ts's.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import type { FirecrawlServices } from './uses.js';
import {
  activeCrawlsOutputSchema,
  crawlV1InputSchema,
  crawlV2InputSchema,
  type CrawlV1Input,
  type CrawlV2Input,
} from './crawl-schema.js';
import { BATCH_JOB } from './batch-run.js';
import { CRAWL_JOB, type CrawlJobInput } from './crawl-run.js';
import { checkJobQuota } from './job-quota.js';
import { firecrawlErrorReply } from './envelope.js';
import { webhookUrlOf } from './job-webhook.js';
import { formatPlan } from './formats.js';
import { type PagesJobs, withoutJobDeclaration } from './pages-jobs.js';
import { checkAnswerable } from './read-pages.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';

/** "No bound" on link hops when maxDiscoveryDepth is absent: `limit` ends the crawl. */
const UNBOUNDED_DEPTH = 10_000;

/** The request as the job runs it; the options as sent are kept for GET /crawl/active. */
export function crawlJobInput(version: FirecrawlVersion, input: CrawlV2Input | CrawlV1Input): CrawlJobInput {
  const { url, scrapeOptions, webhook, origin: _origin, integration: _integration, ...options } = input;
  const v1 = 'maxDepth' in input ? input : null;
  return {
    version,
    url,
    maxDepth: input.maxDiscoveryDepth ?? UNBOUNDED_DEPTH,
    limit: input.limit,
    ...(input.maxConcurrency !== undefined ? { maxConcurrency: input.maxConcurrency } : {}),
    scope: {
      includePaths: input.includePaths ?? [],
      excludePaths: input.excludePaths ?? [],
      regexOnFullURL: input.regexOnFullURL,
      crawlEntireDomain: input.crawlEntireDomain || (v1?.allowBackwardLinks ?? false),
      allowSubdomains: input.allowSubdomains,
      allowExternalLinks: input.allowExternalLinks,
      ignoreQueryParameters: input.ignoreQueryParameters,
      ...(v1 ? { maxPathDepth: v1.maxDepth } : {}),
    },
    scrapeOptions,
    options: { ...options, scrapeOptions },
    ...(webhook !== undefined ? { webhook } : {}),
  };
}

export function crawlCapability(services: FirecrawlServices, jobs: PagesJobs, version: FirecrawlVersion) {
  const capability = jobs.crawl.capability({
    id: `firecrawl.crawl_${version}`,
    title: `Crawl a site (Firecrawl ${version})`,
    description:
      "Firecrawl's crawl, as a durable job: the site's links followed breadth-first from url (robots.txt " +
      'obeyed: disallowed URLs are never requested), ' +
      'within its path unless crawlEntireDomain, filtered by includePaths/excludePaths, up to limit pages, ' +
      'each read with scrapeOptions and kept with the job. ' +
      'Answers {id, url}; GET the url for status and documents.',
    input: version === 'v2' ? crawlV2InputSchema : crawlV1InputSchema,
    http: { method: 'POST', ...firecrawlRoute(version, '/crawl'), errorReply: firecrawlErrorReply },
    readOnly: true,
    // A request the reader would refuse (json without a model, actions not allowed) is a 400 now, not a failed job.
    prepare: async (input, ctx) => {
      await checkAnswerable(services, input.scrapeOptions, formatPlan(input.scrapeOptions));
      await checkJobQuota(services, [CRAWL_JOB, BATCH_JOB], ctx);
      const webhookUrl = webhookUrlOf(input.webhook);
      if (webhookUrl) await services.webhooks.assertDeliverable(webhookUrl, 'webhook.url');
    },
    submission: (input) => ({ input: crawlJobInput(version, input) }),
  });
  return version === 'v2' ? capability : withoutJobDeclaration(capability);
}

export function activeCrawlsCapability(services: FirecrawlServices, version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.crawl_active_${version}`,
    title: `Active crawls (Firecrawl ${version})`,
    description:
      "The caller's crawls not finished yet (queued or running), oldest first, with the options each was started with.",
    input: z.strictObject({}),
    output: activeCrawlsOutputSchema,
    http: {
      method: 'GET',
      ...firecrawlRoute(version, '/crawl/active', ['/crawl/ongoing']),
      errorReply: firecrawlErrorReply,
    },
    readOnly: true,
    async handler(_input, ctx) {
      const running = await services.jobs.unfinishedFor(CRAWL_JOB, ctx.caller);
      return {
        success: true as const,
        crawls: running.map((job) => {
          const input = job.input as CrawlJobInput;
          return {
            id: job.id,
            teamId: job.owner?.id ?? '',
            url: input.url,
            created_at: job.createdAt,
            options: input.options,
          };
        }),
      };
    },
  });
}
