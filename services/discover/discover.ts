/**
 * URL discovery for one site: robots.txt, then its sitemaps, then a
 * breadth-first crawl of its links while more URLs are wanted. Every
 * request goes through the injected fetcher (the OutboundClient), so the
 * address guard, robots.txt and size limits apply; a URL it refuses is an
 * error entry, while a refused or invalid base_url is thrown. See docs/discover.md.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { DiscoveryRun } from './discovery-run.js';
import { collectFromLinks } from './link-crawl.js';
import { allowEverything, readRobots } from './robots.js';
import { normaliseUrl, SiteScope } from './site-urls.js';
import { collectFromSitemaps } from './sitemaps.js';
import { UrlCollector } from './url-collector.js';
import { compileUrlPattern } from './url-pattern.js';
import type { DiscoverOptions, DiscoverResult, DiscoveryFetcher, ProgressListener } from './types.js';

export const MAX_URLS_LIMIT = 10_000;
export const MAX_DEPTH_LIMIT = 10;
export const MAX_CONCURRENCY = 16;
export const DEFAULT_MAX_DEPTH = 3;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_TIMEOUT_MS = 60_000;

export async function discoverUrls(
  fetcher: DiscoveryFetcher,
  options: DiscoverOptions,
  onProgress?: ProgressListener,
): Promise<DiscoverResult> {
  const base = parseBaseUrl(options.baseUrl);
  const maxUrls = integerIn('max_urls', options.maxUrls, 1, MAX_URLS_LIMIT);
  const maxDepth = integerIn('max_depth', options.maxDepth ?? DEFAULT_MAX_DEPTH, 0, MAX_DEPTH_LIMIT);
  const concurrency = integerIn('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY);
  const timeoutMs = integerIn('timeout_ms', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1, 3_600_000);
  const collector = new UrlCollector(maxUrls, compileUrlPattern(options.pattern));

  if (options.signal?.aborted) throw cancelledOr(undefined, options.signal);
  const deadline = AbortSignal.timeout(timeoutMs);
  // Ends in-flight requests once the run is over, whichever way it ends.
  const finished = new AbortController();
  const signals = [deadline, finished.signal, ...(options.signal ? [options.signal] : [])];
  const run = new DiscoveryRun(fetcher, collector, concurrency, AbortSignal.any(signals), onProgress);

  const result: DiscoverResult = {
    base_url: base.href,
    urls: collector.urls,
    total_found: 0,
    sitemaps: [],
    robots: { found: false, sitemaps: [] },
    truncated: false,
    errors: run.errors,
  };
  try {
    const robots = await readRobots(run, base.origin);
    result.robots = { found: robots.found, sitemaps: robots.sitemaps };
    if (!run.done) result.sitemaps = await collectFromSitemaps(run, base.origin, robots.sitemaps, options.parseSitemap);
    if (!run.done) {
      const allowed = options.respectRobots === false ? allowEverything : robots.allowed;
      await collectFromLinks(run, {
        base,
        scope: new SiteScope(base),
        maxDepth,
        allowed,
        parseLinks: options.parseLinks,
        fetcher,
      });
    }
  } catch (error) {
    // Past the first request only a cancel or the time budget can end the run early.
    if (!deadline.aborted || options.signal?.aborted) throw cancelledOr(error, options.signal);
  } finally {
    finished.abort();
  }
  if (options.signal?.aborted) throw cancelledOr(undefined, options.signal);
  if (deadline.aborted) {
    run.errors.push({
      url: base.href,
      code: 'TIMEOUT',
      message: `discovery stopped after its ${timeoutMs} ms budget; the URLs found so far are listed`,
    });
  }
  result.total_found = collector.totalFound;
  result.truncated = collector.truncated;
  run.reportProgress();
  return result;
}

function parseBaseUrl(raw: string): URL {
  const url = typeof raw === 'string' ? normaliseUrl(raw) : null;
  if (!url || !/^https?:\/\//i.test(raw.trim())) {
    throw new AppError('INVALID_INPUT', 'base_url must be an absolute http(s) URL', { details: { field: 'base_url' } });
  }
  return url;
}

function integerIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new AppError('INVALID_INPUT', `${field} must be an integer from ${min} to ${max}`, { details: { field } });
  }
  return value;
}

function cancelledOr(error: unknown, signal: AbortSignal | undefined): AppError {
  if (signal?.aborted) return new AppError('CANCELLED', 'URL discovery was cancelled', { cause: error });
  return toAppError(error);
}
