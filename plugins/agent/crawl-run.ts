/**
 * What agent crawl and map share: the site crawl (services/discover/site-crawl.ts)
 * with the request's bounds and filters, progress per page read, and the
 * failures as Tavily-style failed_results.
 */
import type { AgentServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import type { PageRead, SiteCrawlResult } from '../../services/discover/site-crawl.js';
import type { AgentMapInput } from './crawl-schemas.js';
import { linkDecider } from './url-filters.js';

/** Pages read at once: the outbound policy's per-host limit keeps a site from seeing more. */
const CONCURRENCY = 4;

/**
 * Share of the caller's timeout the crawl itself may use: the rest is for
 * ranking and answering before the client (which waits `timeout` seconds) gives up.
 */
const CRAWL_SHARE = 0.85;

export async function runSiteCrawl<T>(
  services: AgentServices,
  input: AgentMapInput,
  ctx: CallContext,
  reader: { readAll: boolean; read(url: string, signal: AbortSignal): Promise<PageRead<T>> },
): Promise<SiteCrawlResult<T>> {
  const base = new URL(input.url);
  const decide = linkDecider(input, base, (texts, patterns, signal) =>
    services.parsing.regexTest(texts, patterns, signal),
  );
  return services.discovery.crawlSite(
    {
      baseUrl: input.url,
      maxDepth: input.max_depth,
      maxBreadth: input.max_breadth,
      limit: input.limit,
      readAll: reader.readAll,
      concurrency: CONCURRENCY,
      timeoutMs: Math.round(input.timeout * 1000 * CRAWL_SHARE),
      signal: ctx.signal,
      read: reader.read,
      decide,
    },
    (p) =>
      ctx.progress({ progress: p.read, total: input.limit, message: `${p.read} pages read, ${p.taken} URLs found` }),
  );
}

/**
 * Taken URLs that could not be read, with the reason; with readAll (a crawl) also those the time budget left unread.
 * The start URL is listed too when reading it or deciding on its links failed though the filters leave it out of the
 * results (a select_paths pattern that runs too long on its links), so the answer never hides why it is empty.
 */
export function failedResults<T>(result: SiteCrawlResult<T>, readAll: boolean): Array<{ url: string; error: string }> {
  const listed = result.urls
    .filter((entry) => entry.error !== undefined || (readAll && entry.page === undefined))
    .map((entry) => ({
      url: entry.url,
      error: entry.error?.message ?? 'timeout: not read before the time budget ran out',
    }));
  const unlistedStart = result.errors.filter(
    (error) => error.url === result.base_url && !result.urls.some((entry) => entry.url === error.url),
  );
  return [...unlistedStart.map((error) => ({ url: error.url, error: error.message })), ...listed];
}
