/**
 * POST /api/v1/agent/crawl (Tavily's /crawl): follow a site's links
 * breadth-first and return each page's main content. Every taken URL is read
 * once by the scraper (basic: static fetch; advanced: rendered with
 * JavaScript when a browser is available), and the links followed are parsed
 * from the same HTML in the worker pool. A page that fails is reported in
 * failed_results; the call still succeeds.
 */
import { responseTime } from './tavily-fields.js';
import type { AgentServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { PageRead } from '../../services/discover/site-crawl.js';
import type { ScrapedPage } from '../../services/scrape/scraper.js';
import type { AgentCrawlInput, AgentCrawlOutput } from './crawl-schemas.js';
import { failedResults, runSiteCrawl } from './crawl-run.js';
import { rankPagesByInstructions } from './instructions.js';
import { requestId } from './search.js';

const DEFAULT_CHUNKS = 3;
/** Longest a single page read may take; the crawl's own deadline usually ends it sooner. */
const PAGE_TIMEOUT_MS = 30_000;

type CrawlResult = AgentCrawlOutput['results'][number];

interface ReadPage {
  page: ScrapedPage;
  favicon: string | null;
}

export async function agentCrawl(
  services: AgentServices,
  input: AgentCrawlInput,
  ctx: CallContext,
): Promise<AgentCrawlOutput> {
  const started = performance.now();
  const advanced = input.extract_depth === 'advanced';
  const javascript = advanced && services.scraper.renderAvailable();
  if (advanced && !javascript)
    ctx.logger.warn('agent crawl: no browser here; advanced extraction fetches pages without rendering');

  const read = async (url: string, signal: AbortSignal): Promise<PageRead<ReadPage>> => {
    const page = await services.scraper.scrapeOne(
      url,
      {
        javascript,
        timeoutMs: PAGE_TIMEOUT_MS,
        extract: {
          markdown: input.format === 'markdown',
          includeImages: input.include_images,
          includeLinks: false,
          media: input.include_favicon,
        },
        includeHtml: true,
      },
      signal,
    );
    if (!page.success || !page.text.trim())
      throw new AppError('UPSTREAM_FAILED', page.failureReason ?? 'the page has no text');
    const finalUrl = page.finalUrl || url;
    const links = page.html ? await services.parsing.links(page.html, finalUrl, signal) : [];
    const favicon = input.include_favicon ? (page.media?.favicon ?? null) : null;
    // Up to `limit` pages are held until the answer: keep their text, not their HTML.
    delete page.html;
    return { finalUrl, links, value: { page, favicon } };
  };
  const crawl = await runSiteCrawl(services, input, ctx, { readAll: true, read });

  const pages = crawl.urls.flatMap((entry) => (entry.page ? [{ entry, ...entry.page }] : []));
  let results: CrawlResult[] = pages.map(({ entry, page, favicon }) => {
    const result: CrawlResult = {
      url: entry.url,
      raw_content: input.format === 'markdown' ? page.markdown || page.text : page.text,
      images: input.include_images ? page.images : [],
      title: page.title || null,
      depth: entry.depth,
    };
    if (favicon) result.favicon = favicon;
    return result;
  });
  if (input.instructions) {
    const embedder = await services.semantic.embedderOrNull(ctx.logger);
    const ranked = await rankPagesByInstructions(
      input.instructions,
      pages.map(({ page }) => ({ title: page.title, text: page.text })),
      embedder,
      ctx.signal,
    );
    const chunks = input.chunks_per_source ?? DEFAULT_CHUNKS;
    results = ranked.map(({ index, score, passages }) => ({
      ...results[index]!,
      raw_content: passages
        .slice(0, chunks)
        .map((p) => p.text.trim())
        .join(' […] '),
      score,
    }));
  }
  return {
    base_url: crawl.base_url,
    results,
    response_time: responseTime(started),
    request_id: requestId(),
    failed_results: failedResults(crawl, true),
    timed_out: crawl.timedOut,
  };
}
