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
  MAX_CRAWL_LIMIT,
  type CrawlSitemapMode,
  type CrawlV1Input,
  type CrawlV2Input,
} from './crawl-schema.js';
import { crawlOptionsModel, generateCrawlOptions, type GeneratedCrawlOptions } from './crawl-prompt.js';
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

/**
 * The request as the job runs it, with the options a prompt generated under the ones the caller set, then
 * Firecrawl's defaults; the options as sent (and as generated) are kept for GET /crawl/active.
 */
export function crawlJobInput(
  version: FirecrawlVersion,
  input: CrawlV2Input | CrawlV1Input,
  generated: GeneratedCrawlOptions = {},
): CrawlJobInput {
  const { url, scrapeOptions, webhook, origin: _origin, integration: _integration, ...options } = input;
  const set = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const chosen = { ...generated, ...set } as typeof options & GeneratedCrawlOptions;
  const v1 = 'maxDepth' in input ? input : null;
  const sitemap: CrawlSitemapMode = v1 ? (v1.ignoreSitemap ? 'skip' : 'include') : (chosen.sitemap ?? 'include');
  return {
    version,
    url,
    maxDepth: chosen.maxDiscoveryDepth ?? UNBOUNDED_DEPTH,
    limit: chosen.limit ?? MAX_CRAWL_LIMIT,
    ...(input.maxConcurrency !== undefined ? { maxConcurrency: input.maxConcurrency } : {}),
    ...(chosen.delay ? { delayMs: Math.round(chosen.delay * 1000) } : {}),
    sitemap,
    scope: {
      includePaths: chosen.includePaths ?? [],
      excludePaths: chosen.excludePaths ?? [],
      regexOnFullURL: chosen.regexOnFullURL ?? false,
      crawlEntireDomain: (chosen.crawlEntireDomain ?? false) || (v1?.allowBackwardLinks ?? false),
      allowSubdomains: chosen.allowSubdomains ?? false,
      allowExternalLinks: chosen.allowExternalLinks ?? false,
      ignoreQueryParameters: chosen.ignoreQueryParameters ?? false,
      deduplicateSimilarURLs: chosen.deduplicateSimilarURLs ?? true,
      ...(v1 ? { maxPathDepth: v1.maxDepth } : {}),
    },
    scrapeOptions,
    options: {
      ...options,
      ...(Object.keys(generated).length > 0 ? { promptGeneratedOptions: generated } : {}),
      scrapeOptions,
    },
    ...(webhook !== undefined ? { webhook } : {}),
  };
}

export function crawlCapability(services: FirecrawlServices, jobs: PagesJobs, version: FirecrawlVersion) {
  const capability = jobs.crawl.capability({
    id: `firecrawl.crawl_${version}`,
    title: `Crawl a site (Firecrawl ${version})`,
    description:
      "Firecrawl's crawl, as a durable job: the site's links followed breadth-first from url, with its sitemaps' " +
      'URLs unless sitemap is skip (robots.txt obeyed: disallowed URLs are never requested), ' +
      'within its path unless crawlEntireDomain, filtered by includePaths/excludePaths, up to limit pages, ' +
      'each read with scrapeOptions and kept with the job; a prompt is turned into these options by the ' +
      'language model. ' +
      'Answers {id, url}; GET the url for status and documents.',
    input: version === 'v2' ? crawlV2InputSchema : crawlV1InputSchema,
    http: { method: 'POST', ...firecrawlRoute(version, '/crawl'), errorReply: firecrawlErrorReply },
    readOnly: true,
    // A request the reader would refuse (json without a model, actions not allowed) is a 400 now, not a failed job.
    prepare: async (input, ctx): Promise<GeneratedCrawlOptions> => {
      await checkAnswerable(services, input.scrapeOptions, formatPlan(input.scrapeOptions));
      // Without a model a prompt is refused before anything is queued, as json is.
      const model = 'prompt' in input && input.prompt ? crawlOptionsModel(services, 'prompt') : null;
      await checkJobQuota(services, [CRAWL_JOB, BATCH_JOB], ctx);
      const webhookUrl = webhookUrlOf(input.webhook);
      if (webhookUrl) await services.webhooks.assertDeliverable(webhookUrl, 'webhook.url');
      if (!model || !('prompt' in input) || !input.prompt) return {};
      return generateCrawlOptions(model, { url: input.url, prompt: input.prompt, signal: ctx.signal });
    },
    submission: (input, generated) => ({ input: crawlJobInput(version, input, generated) }),
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
