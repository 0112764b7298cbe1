/**
 * One enhanced search: check the request, run the Search API's search
 * (services/web-search/search-runner.ts) without its scraping, fetch the result
 * pages keeping their HTML (through the browser's virtual scrolling when
 * asked and available), run the page pipeline on each, and shape the answer.
 * The request's `timeout` bounds everything: about 40% for the engines, the
 * rest for pages (adaptive crawls stop at the deadline).
 */
import type { EnhancedServices } from '../uses.js';
import { createHash } from 'node:crypto';
import type { CallContext } from '../../../core/capability.js';
import { AppError, toAppError } from '../../../core/errors.js';
import { PageReadError } from '../../../services/scrape/page-failures.js';
import type { ScrapedPage } from '../../../services/scrape/scraper.js';
import { searchInputSchema, type SearchAnswer, type SearchInput } from '../../../services/web-search/schemas.js';
import { newRequestId } from '../../../services/web-search/search-runner.js';
import { processPage } from './page-pipeline.js';
import { prepareRequest, type PreparedRequest } from './prepare.js';
import { renderEnhancedMarkdown } from './render.js';
import { scrapedContent } from '../../../services/web-search/scraped-content.js';
import type { EnhancedAnswer, EnhancedPage, EnhancedResult, EnhancedSearchInput } from './schemas.js';

const ENGINE_SHARE = 0.4;
const PAGE_CONCURRENCY = 4;
const SEARCH_KEYS = Object.keys(searchInputSchema.shape) as Array<keyof SearchInput>;

function searchPart(input: EnhancedSearchInput, timeout: number): SearchInput {
  const picked = Object.fromEntries(
    SEARCH_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
  ) as SearchInput;
  // The search itself never scrapes here: pages are fetched below with their HTML kept.
  return {
    ...picked,
    scrape_content: false,
    output_format: 'json',
    async_mode: false,
    webhook_url: undefined,
    timeout,
  };
}

function cacheKey(input: EnhancedSearchInput): string {
  const { async_mode: _a, webhook_url: _w, timeout: _t, cache_ttl: _c, ...rest } = input;
  return `enhanced-search:${createHash('sha256').update(JSON.stringify(rest)).digest('hex')}`;
}

function enhancementsAsked(input: EnhancedSearchInput): boolean {
  return (
    input.extraction_strategy !== 'none' ||
    input.content_filter !== 'none' ||
    input.markdown_generation ||
    input.adaptive_crawling ||
    input.virtual_scrolling ||
    input.link_analysis
  );
}

function wantsPages(input: EnhancedSearchInput): boolean {
  return input.scrape_content || enhancementsAsked(input);
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      out[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function runEnhancedSearch(
  services: EnhancedServices,
  input: EnhancedSearchInput,
  ctx: CallContext,
  preparedAlready?: PreparedRequest,
): Promise<EnhancedAnswer> {
  const started = performance.now();
  const deadline = started + input.timeout * 1000;
  const prepared = preparedAlready ?? (await prepareRequest(services, input));
  const key = cacheKey(input);
  if (input.cache_ttl > 0) {
    const cached = (await services.stores.cache.get(key)) as EnhancedAnswer | undefined;
    services.metrics.cacheLookup('enhanced_search', cached !== undefined);
    if (cached)
      return {
        ...cached,
        cached: true,
        request_id: newRequestId(),
        processing_time_ms: Math.round(performance.now() - started),
      };
  }

  const search = (await services.webSearch.search(
    searchPart(input, Math.max(1, Math.round(input.timeout * ENGINE_SHARE))),
    ctx,
  )) as SearchAnswer;
  const enhancedStarted = performance.now();
  const urls = search.results.map((r) => r.url);

  let pages: ScrapedPage[] = [];
  if (wantsPages(input) && urls.length > 0) {
    ctx.progress({ progress: 0, total: urls.length, message: `fetching ${urls.length} result pages` });
    pages = await services.scraper.scrapeMany(urls, {
      javascript: input.js_mode,
      timeoutMs: Math.max(1, Math.floor((deadline - performance.now()) * 0.5)),
      signal: ctx.signal,
      includeHtml: true,
      extract: { includeImages: input.include_images, includeLinks: input.include_links, markdown: true },
    });
    if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');
  }

  // Adaptive crawling reads further pages of the result's site through the same scraper and policy.
  const fetchHtml = async (url: string, signal?: AbortSignal): Promise<{ html: string; finalUrl: string }> => {
    const [page] = await services.scraper.scrapeMany([url], {
      javascript: input.js_mode,
      timeoutMs: Math.max(1, Math.min(15_000, Math.floor(deadline - performance.now()))),
      ...(signal ? { signal } : {}),
      includeHtml: true,
      extract: { includeImages: false, includeLinks: false, markdown: false },
    });
    // The reader's failure code goes with the error (ROBOTS_DISALLOWED stays ROBOTS_DISALLOWED), not one generic code.
    if (!page?.html)
      throw new PageReadError(page?.errorCode ?? 'FETCH_FAILED', page?.failureReason ?? 'the page could not be read');
    return { html: page.html, finalUrl: page.finalUrl };
  };

  let done = 0;
  const enhanced = enhancementsAsked(input)
    ? await mapLimited(pages, PAGE_CONCURRENCY, async (page) => {
        const out: EnhancedPage = { status: 'ok', errors: [] };
        let html = page.html ?? '';
        if (prepared.scroller) {
          if (!prepared.scroller.ok)
            out.virtual_scroll = { available: false, used: false, reason: prepared.scroller.reason };
          else {
            try {
              const scrolled = await prepared.scroller.scroll(page.url, {
                maxScrolls: input.scroll?.max_scrolls ?? 10,
                scrollDelayMs: input.scroll?.scroll_delay_ms ?? 500,
                timeoutMs: Math.max(1000, Math.floor((deadline - performance.now()) * 0.5)),
                signal: ctx.signal,
              });
              // Items a virtualised list dropped while scrolling come back from the snapshots (merged by the reader).
              html = scrolled.html;
              out.virtual_scroll = {
                available: true,
                used: true,
                snapshots: scrolled.snapshots,
                final_url: scrolled.finalUrl,
              };
            } catch (error) {
              const appError = toAppError(error);
              out.virtual_scroll = { available: true, used: false, reason: `scrolling failed: ${appError.message}` };
              out.errors.push({ step: 'virtual_scroll', code: appError.code, message: appError.message });
            }
          }
        }
        if (!html) {
          out.status = 'failed';
          out.errors.push({
            step: 'fetch',
            code: page.errorCode ?? 'UPSTREAM_FAILED',
            message: page.failureReason ?? 'the page could not be fetched',
          });
        } else {
          await processPage(
            prepared,
            { url: page.finalUrl || page.url, html, mainMarkdown: page.success ? page.markdown : '' },
            { fetchHtml, deadline, signal: ctx.signal, parsing: services.parsing, discovery: services.discovery },
            out,
          );
        }
        ctx.progress({ progress: ++done, total: pages.length, message: `processed ${done} of ${pages.length} pages` });
        return out;
      })
    : [];
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');

  const results: EnhancedResult[] = search.results.map((result, i) => {
    const item: EnhancedResult = { ...result };
    if (input.scrape_content && pages[i]) item.scraped_content = scrapedContent(pages[i]!, input);
    if (enhanced[i]) item.enhanced = enhanced[i];
    return item;
  });

  const answer: EnhancedAnswer = {
    ...search,
    results,
    cached: false,
    request_id: newRequestId(),
    enhanced_metadata: {
      extraction_strategy: input.extraction_strategy,
      content_filter: input.content_filter,
      markdown_generation: input.markdown_generation,
      adaptive_crawling: input.adaptive_crawling,
      virtual_scrolling: input.virtual_scrolling,
      link_analysis: input.link_analysis,
      pages_processed: enhanced.length,
      pages_failed: enhanced.filter((e) => e.status === 'failed').length,
      ...(prepared.embedder ? { embedding_model: prepared.embedder.info().id } : {}),
      ...(prepared.llm ? { llm_model: prepared.llm.model } : {}),
      enhanced_time_ms: Math.round(performance.now() - enhancedStarted),
    },
    processing_time_ms: Math.round(performance.now() - started),
  };
  delete answer.markdown;
  if (input.output_format === 'markdown')
    answer.markdown = renderEnhancedMarkdown(answer, services.webSearch.linkPolicy);
  if (input.cache_ttl > 0 && search.search_metadata.engines_succeeded.length > 0)
    await services.stores.cache.set(key, answer, input.cache_ttl * 1000);
  return answer;
}
