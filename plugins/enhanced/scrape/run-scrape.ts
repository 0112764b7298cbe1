/**
 * A whole request: plan from the options, scrape the distinct URLs with
 * bounded concurrency under one deadline, report progress per finished URL,
 * and answer one entry per input URL, in input order.
 */
import { randomUUID } from 'node:crypto';
import type { CallContext } from '../../../core/capability.js';
import type { LinkPolicy } from '../../../services/markdown/escape.js';
import { renderScrapeMarkdown, presentPage } from './present.js';
import { scrapeOne, type ScrapeDeps, type ScrapeOutcome, type ScrapePlan } from './scrape-one.js';
import type { ScrapeInput, ScrapeOutput } from './schema.js';

export interface RunLimits {
  /** Plain fetches in flight at once. */
  fetchConcurrency: number;
  /** Browser pages in flight at once (the pool's own bound; more would only queue there). */
  renderConcurrency: number;
  /** Which URLs the markdown answer links (the outbound policy's). */
  linkPolicy: LinkPolicy;
}

/** Screenshots, PDFs and wait modes exist only in a browser, so asking for them means rendering. */
export function needsBrowser(input: ScrapeInput): boolean {
  return input.javascript_rendering || input.screenshot || input.pdf || input.wait_until !== undefined;
}

export async function runScrape(deps: ScrapeDeps, limits: RunLimits, input: ScrapeInput, ctx: CallContext): Promise<ScrapeOutput> {
  const started = performance.now();
  const browser = needsBrowser(input);
  const plan: ScrapePlan = {
    shape: { browser, waitUntil: browser ? (input.wait_until ?? 'load') : null, screenshot: input.screenshot, pdf: input.pdf, includeHtml: input.include_html },
    wish: { waitUntil: input.wait_until ?? 'load', screenshot: input.screenshot, pdf: input.pdf },
    mode: input.cache_mode,
    ttlSeconds: input.cache_ttl,
    deadline: Date.now() + input.timeout * 1000,
    signal: ctx.signal,
  };
  const unique = [...new Set(input.urls)];
  const outcomes = new Map<string, ScrapeOutcome>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const url = unique[next++]!;
      const outcome = await scrapeOne(deps, url, plan);
      outcomes.set(url, outcome);
      const { record } = outcome;
      ctx.progress({
        progress: outcomes.size,
        total: unique.length,
        message: `${url}: ${record.success ? (outcome.fromCache ? 'from cache' : 'scraped') : `failed (${record.errorCode})`}`,
      });
    }
  };
  const concurrency = Math.max(1, Math.min(unique.length, browser ? limits.renderConcurrency : limits.fetchConcurrency));
  await Promise.all(Array.from({ length: concurrency }, worker));

  const pages = input.urls.map((url) => {
    const outcome = outcomes.get(url)!;
    return presentPage({ ...outcome.record, url }, outcome.fromCache, input);
  });
  const failed = pages.filter((p) => !p.extraction_success);
  const output: ScrapeOutput = {
    request_id: randomUUID(),
    scraped_content: pages,
    metadata: {
      total_urls: pages.length,
      successful: pages.length - failed.length,
      failed: failed.length,
      failed_urls: failed.map((p) => ({ url: p.url, error_code: p.error_code ?? 'INTERNAL', reason: p.failure_reason ?? '' })),
      cache_hits: pages.filter((p) => p.from_cache).length,
      cache_mode: input.cache_mode,
      rendered: browser,
      processing_time_ms: Math.round(performance.now() - started),
    },
  };
  if (input.response_format === 'markdown') output.markdown = renderScrapeMarkdown(output, limits.linkPolicy);
  return output;
}
