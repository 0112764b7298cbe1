/**
 * A whole request mapped onto the page reader: the options become the
 * reader's (screenshots, PDFs and wait modes mean rendering), progress is
 * reported per finished URL, and the answer has one entry per input URL, in
 * input order.
 */
import { randomUUID } from 'node:crypto';
import type { CallContext } from '../../../core/capability.js';
import type { LinkPolicy } from '../../../services/markdown/escape.js';
import type { Scraper, ScrapeOptions } from '../../../services/scrape/scraper.js';
import { renderScrapeMarkdown, presentPage } from './present.js';
import type { ScrapeInput, ScrapeOutput } from './schema.js';

/** Screenshots, PDFs and wait modes exist only in a browser, so asking for them means rendering. */
export function needsBrowser(input: ScrapeInput): boolean {
  return input.javascript_rendering || input.screenshot || input.pdf || input.wait_until !== undefined;
}

export function readerOptions(input: ScrapeInput, ctx: CallContext): ScrapeOptions {
  return {
    javascript: needsBrowser(input),
    timeoutMs: input.timeout * 1000,
    signal: ctx.signal,
    // Extracted in full once, so a cached page serves any extract_* mix.
    extract: { includeImages: true, includeLinks: true, markdown: true },
    includeHtml: input.include_html,
    ...(input.wait_until ? { waitUntil: input.wait_until } : {}),
    screenshot: input.screenshot,
    pdf: input.pdf,
    cache: { mode: input.cache_mode, ttlSeconds: input.cache_ttl },
  };
}

export async function runScrape(
  scraper: Scraper,
  linkPolicy: LinkPolicy,
  input: ScrapeInput,
  ctx: CallContext,
): Promise<ScrapeOutput> {
  const started = performance.now();
  const total = new Set(input.urls).size;
  let done = 0;
  const read = await scraper.scrapeMany(input.urls, {
    ...readerOptions(input, ctx),
    onPage: (page) =>
      ctx.progress({
        progress: ++done,
        total,
        message: `${page.url}: ${page.success ? (page.fromCache ? 'from cache' : 'scraped') : `failed (${page.errorCode})`}`,
      }),
  });
  const pages = read.map((page) => presentPage(page, input));
  const failed = pages.filter((p) => !p.extraction_success);
  const output: ScrapeOutput = {
    request_id: randomUUID(),
    scraped_content: pages,
    metadata: {
      total_urls: pages.length,
      successful: pages.length - failed.length,
      failed: failed.length,
      failed_urls: failed.map((p) => ({
        url: p.url,
        error_code: p.error_code ?? 'INTERNAL',
        reason: p.failure_reason ?? '',
      })),
      cache_hits: pages.filter((p) => p.from_cache).length,
      cache_mode: input.cache_mode,
      rendered: needsBrowser(input),
      processing_time_ms: Math.round(performance.now() - started),
    },
  };
  if (input.response_format === 'markdown') output.markdown = renderScrapeMarkdown(output, linkPolicy);
  return output;
}
