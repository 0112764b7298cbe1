/**
 * A Firecrawl batch scrape as a job: the URLs read by the one reader (its
 * lanes, robots.txt first for each), every page kept with the job as a
 * Document as soon as it is read (job-pages.ts), like a crawl's.
 */
import type { JobHandlerContext } from '../../core/plugin.js';
import type { FirecrawlServices } from './uses.js';
import type { PagesJobResult } from './crawl-run.js';
import type { WebhookInput } from './crawl-schema.js';
import { formatPlan } from './formats.js';
import type { JobPages } from './job-pages.js';
import { JobWebhook, withWebhookEvents } from './job-webhook.js';
import { jobCallContext, PageRecorder } from './page-recorder.js';
import { readerOptions } from './read-pages.js';
import type { FirecrawlVersion } from './routes.js';
import type { ScrapeOptionsInput } from './scrape-schema.js';

export const BATCH_JOB = 'firecrawl.batch_scrape';

/** Reader lanes a batch's time bound assumes (the reader's own concurrency decides). */
const LANES = 4;

export interface BatchJobInput {
  version: FirecrawlVersion;
  urls: string[];
  invalidURLs: string[];
  scrapeOptions: ScrapeOptionsInput;
  webhook?: WebhookInput;
}

export async function runBatch(
  services: FirecrawlServices,
  pages: JobPages,
  input: BatchJobInput,
  job: JobHandlerContext,
): Promise<PagesJobResult> {
  const hook = JobWebhook.of(services.webhooks, input.webhook, 'batch_scrape', job.id);
  return withWebhookEvents(hook, job.signal, () => scrapePages(services, pages, input, job, hook));
}

async function scrapePages(
  services: FirecrawlServices,
  pages: JobPages,
  input: BatchJobInput,
  job: JobHandlerContext,
  hook: JobWebhook | null,
): Promise<PagesJobResult> {
  const ctx = jobCallContext(services, BATCH_JOB, job);
  const writer = await pages.writer(job.id);
  const plan = formatPlan(input.scrapeOptions);
  const recorder = new PageRecorder(services, writer, plan, input.scrapeOptions, ctx, hook?.page.bind(hook));
  writer.setTotal(input.urls.length);
  const unread = input.urls.filter((url) => !writer.has(url));
  const delivered = new Set<string>();
  let recording: Promise<void> = Promise.resolve();
  const read = await services.scraper.scrapeMany(unread, {
    ...readerOptions(input.scrapeOptions, plan, job.signal),
    timeoutMs: input.scrapeOptions.timeout * Math.max(1, Math.ceil(unread.length / LANES)),
    // Each page is kept as it is read, so status reads see the batch fill up.
    onPage: (page) => {
      delivered.add(page.url);
      recording = recording.then(async () => {
        await recorder.record(page.url, page);
        job.progress({ progress: writer.stored, total: input.urls.length, message: `${writer.stored} pages read` });
      });
    },
  });
  await recording;
  job.signal.throwIfAborted();
  // Pages the deadline left unread come back without passing through onPage.
  for (const page of read) if (!delivered.has(page.url)) await recorder.record(page.url, page);
  const state = await writer.flush();
  return { completed: state.stored, total: input.urls.length };
}
