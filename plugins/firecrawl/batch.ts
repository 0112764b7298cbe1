/**
 * POST /v2/batch/scrape and /v1/batch/scrape: the URLs read as a durable job
 * (batch-run.ts) with the scrape options given beside them, answered with
 * `{success, id, url, invalidURLs}`. With ignoreInvalidURLs (v2's default) a
 * URL that is not an http(s) URL is left out and named in invalidURLs; without
 * it, the batch is a 400 naming the URL.
 */
import { AppError } from '../../core/errors.js';
import type { FirecrawlServices } from './uses.js';
import { BATCH_JOB, type BatchJobInput } from './batch-run.js';
import { CRAWL_JOB } from './crawl-run.js';
import { checkJobQuota } from './job-quota.js';
import { batchInputSchema, type BatchInput } from './crawl-schema.js';
import { firecrawlErrorReply } from './envelope.js';
import { webhookUrlOf } from './job-webhook.js';
import { formatPlan } from './formats.js';
import { type PagesJobs, withoutJobDeclaration } from './pages-jobs.js';
import { checkAnswerable } from './read-pages.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import { firecrawlUrlSchema, V2_DEFAULT_MAX_AGE_MS } from './scrape-schema.js';

export { BATCH_JOB };

interface SortedUrls {
  urls: string[];
  invalidURLs: string[];
}

/** The batch's URLs, a scheme added where missing; the invalid ones apart (or refused, by index). */
export function sortUrls(input: Pick<BatchInput, 'urls' | 'ignoreInvalidURLs'>): SortedUrls {
  const sorted: SortedUrls = { urls: [], invalidURLs: [] };
  const taken = new Set<string>();
  for (const [index, raw] of input.urls.entries()) {
    const parsed = firecrawlUrlSchema.safeParse(raw);
    if (parsed.success) {
      // A URL listed twice is read once.
      if (!taken.has(parsed.data)) sorted.urls.push(parsed.data);
      taken.add(parsed.data);
    } else if (input.ignoreInvalidURLs) sorted.invalidURLs.push(raw);
    else
      throw new AppError('INVALID_INPUT', `urls[${index}]: "${raw.slice(0, 200)}" is not an http(s) URL`, {
        details: { field: `urls.${index}` },
      });
  }
  if (sorted.urls.length === 0)
    throw new AppError('INVALID_INPUT', 'urls: none of the URLs is an http(s) URL', { details: { field: 'urls' } });
  return sorted;
}

export function batchScrapeCapability(services: FirecrawlServices, jobs: PagesJobs, version: FirecrawlVersion) {
  const capability = jobs.batch.capability({
    id: `firecrawl.batch_scrape_${version}`,
    title: `Batch scrape (Firecrawl ${version})`,
    description:
      "Firecrawl's batch scrape, as a durable job: every URL read by the reader (robots.txt first) with the " +
      'scrape options given beside `urls`, ' +
      'each page kept with the job as a Document. Answers {id, url, invalidURLs}; GET the url for status and ' +
      'documents.',
    input: batchInputSchema(version === 'v2' ? V2_DEFAULT_MAX_AGE_MS : 0, version === 'v2'),
    http: { method: 'POST', ...firecrawlRoute(version, '/batch/scrape'), errorReply: firecrawlErrorReply },
    readOnly: true,
    prepare: async (input, ctx) => {
      const {
        urls: _urls,
        ignoreInvalidURLs: _ignore,
        webhook: _webhook,
        appendToId: _append,
        maxConcurrency: _max,
        ...options
      } = input;
      await checkAnswerable(services, options, formatPlan(options));
      await checkJobQuota(services, [CRAWL_JOB, BATCH_JOB], ctx);
      const webhookUrl = webhookUrlOf(input.webhook);
      if (webhookUrl) await services.webhooks.assertDeliverable(webhookUrl, 'webhook.url');
      return sortUrls(input);
    },
    submission: (input, sorted) => {
      const {
        urls: _urls,
        ignoreInvalidURLs: _ignore,
        webhook,
        appendToId: _append,
        maxConcurrency: _max,
        ...options
      } = input;
      const job: BatchJobInput = {
        version,
        urls: sorted.urls,
        invalidURLs: sorted.invalidURLs,
        scrapeOptions: options,
        ...(webhook !== undefined ? { webhook } : {}),
      };
      return { input: job };
    },
  });
  return version === 'v2' ? capability : withoutJobDeclaration(capability);
}
