/**
 * A Firecrawl crawl as a job: the one site crawl (services/discover: robots.txt
 * of the site read first, disallowed links never requested, breadth-first),
 * each taken page read by the one reader with the crawl's scrapeOptions and
 * kept with the job as a Document as soon as it is read (job-pages.ts), so
 * status reads page through the crawl while it runs. The site's sitemaps add
 * URLs unless `sitemap: skip`; `delay` reads one page at a time, that many
 * seconds apart.
 */
import { abortableSleep } from '../../core/abort.js';
import type { JobHandlerContext } from '../../core/plugin.js';
import type { FirecrawlServices } from './uses.js';
import { crawlDecider, type CrawlScope } from './crawl-scope.js';
import { formatPlan } from './formats.js';
import type { JobPages } from './job-pages.js';
import { JobWebhook, withWebhookEvents } from './job-webhook.js';
import { jobCallContext, PageRecorder } from './page-recorder.js';
import { readerOptions } from './read-pages.js';
import type { FirecrawlVersion } from './routes.js';
import type { ScrapeOptionsInput } from './scrape-schema.js';
import type { CrawlSitemapMode, WebhookInput } from './crawl-schema.js';

export const CRAWL_JOB = 'firecrawl.crawl';

/** How long one crawl may run: Firecrawl has no crawl timeout; this bounds a crawl that never ends. */
export const CRAWL_TIME_BUDGET_MS = 3 * 3600_000;
/** Pages read at once; the outbound policy's per-host limit keeps a site from seeing more. */
const MAX_CONCURRENCY = 8;
const DEFAULT_CONCURRENCY = 4;
/** Links taken from one page: Firecrawl has no such bound, `limit` is what stops a crawl. */
const MAX_BREADTH = 10_000;

/** What a crawl job stores as its input: the request as the run needs it. */
export interface CrawlJobInput {
  version: FirecrawlVersion;
  url: string;
  maxDepth: number;
  limit: number;
  maxConcurrency?: number;
  /** Pause between two page reads (Firecrawl's `delay`), which reads one page at a time. */
  delayMs?: number;
  /** Absent in jobs stored before sitemaps were read: those crawls follow links only. */
  sitemap?: CrawlSitemapMode;
  scope: CrawlScope;
  scrapeOptions: ScrapeOptionsInput;
  /** The request's options as sent (GET /crawl/active answers them). */
  options: Record<string, unknown>;
  webhook?: WebhookInput;
}

export interface PagesJobResult {
  completed: number;
  total: number;
}

export async function runCrawl(
  services: FirecrawlServices,
  pages: JobPages,
  input: CrawlJobInput,
  job: JobHandlerContext,
): Promise<PagesJobResult> {
  const hook = JobWebhook.of(services.webhooks, input.webhook, 'crawl', job.id);
  return withWebhookEvents(hook, job.signal, () => crawlPages(services, pages, input, job, hook));
}

async function crawlPages(
  services: FirecrawlServices,
  pages: JobPages,
  input: CrawlJobInput,
  job: JobHandlerContext,
  hook: JobWebhook | null,
): Promise<PagesJobResult> {
  const ctx = jobCallContext(services, CRAWL_JOB, job);
  const writer = await pages.writer(job.id);
  const plan = formatPlan(input.scrapeOptions);
  // The crawl follows every link of a page: extraction reads them from the parse it makes anyway (pageLinks), so a
  // page is parsed once and its markup comes back only when a format asks for it.
  const read = readerOptions(input.scrapeOptions, plan, job.signal);
  const reader = { ...read, extract: { ...read.extract, pageLinks: true } };
  const recorder = new PageRecorder(services, writer, plan, input.scrapeOptions, ctx, hook?.page.bind(hook));
  const base = new URL(input.url);
  const decideLinks = crawlDecider(input.scope, base, (texts, patterns, signal) =>
    services.parsing.regexTest(texts, patterns, signal),
  );
  // The start URL is read for its links whatever the filters say; it is a result only when they keep it.
  let startListed = true;
  let firstDecision = true;
  // The start URL is the crawl's first read: no other URL is known before its links are.
  let startRead = false;
  const decide: typeof decideLinks = async (urls, signal) => {
    const decisions = await decideLinks(urls, signal);
    if (firstDecision) {
      firstDecision = false;
      startListed = decisions[0] !== 'drop';
    }
    return decisions;
  };

  const sitemap = input.sitemap ?? 'skip';
  const delayMs = input.delayMs ?? 0;
  let reads = 0;
  const result = await services.discovery.crawlSite(
    {
      baseUrl: input.url,
      ...(sitemap !== 'skip' ? { sitemaps: sitemap } : {}),
      maxDepth: input.maxDepth,
      maxBreadth: MAX_BREADTH,
      limit: input.limit,
      readAll: true,
      // Firecrawl's delay forces one read at a time: the pause is between requests, not between batches of them.
      concurrency: delayMs > 0 ? 1 : Math.min(MAX_CONCURRENCY, input.maxConcurrency ?? DEFAULT_CONCURRENCY),
      timeoutMs: CRAWL_TIME_BUDGET_MS,
      signal: job.signal,
      decide,
      onRobotsBlocked: (urls) => writer.addRobotsBlocked(urls),
      read: async (url, signal) => {
        if (delayMs > 0 && reads++ > 0) await abortableSleep(delayMs, signal);
        const page = await services.scraper.scrapeOne(url, { ...reader, signal }, signal);
        const finalUrl = page.finalUrl || url;
        const links = page.pageLinks ?? [];
        const isStart = !startRead;
        startRead = true;
        if (!isStart || startListed) await recorder.record(url, page);
        job.progress({ progress: writer.stored, message: `${writer.stored} pages read` });
        return { finalUrl, links, value: null };
      },
    },
    (progress) => writer.setTotal(progress.taken),
  );

  for (const error of result.errors) recorder.notRead(error.url, error.code, error.message);
  for (const entry of result.urls) {
    if (entry.error) recorder.notRead(entry.url, entry.error.code, entry.error.message);
    else if (entry.page === undefined && !writer.has(entry.url))
      recorder.notRead(entry.url, 'TIMEOUT', 'not read before the crawl ran out of time');
  }
  writer.setTotal(result.urls.length);
  const state = await writer.flush();
  return { completed: state.stored, total: Math.max(state.total, state.stored) };
}
