/**
 * The URLs a site's sitemaps list, for a crawl that starts from them as well
 * as from its start URL: the sitemap phase of discovery (sitemaps.ts: robots
 * txt's Sitemap lines, else the usual paths; indexes followed a bounded number
 * of levels) run on its own, stopping once maxUrls are known.
 */
import { DiscoveryRun } from './discovery-run.js';
import { collectFromSitemaps } from './sitemaps.js';
import { UrlCollector } from './url-collector.js';
import type { DiscoveryError, DiscoveryFetcher, SitemapReader } from './types.js';

/** Sitemap documents read at once. */
const SITEMAP_CONCURRENCY = 4;

export interface SitemapListing {
  /** In the order the sitemaps list them, each once. */
  urls: string[];
  /** Sitemaps announced but unreadable (a guessed /sitemap.xml that is missing is no error). */
  errors: DiscoveryError[];
}

export async function sitemapUrls(
  fetcher: DiscoveryFetcher,
  origin: string,
  announced: string[],
  readSitemap: SitemapReader,
  bounds: { maxUrls: number; signal: AbortSignal },
): Promise<SitemapListing> {
  const collector = new UrlCollector(bounds.maxUrls, () => true);
  const run = new DiscoveryRun(fetcher, collector, SITEMAP_CONCURRENCY, bounds.signal, undefined);
  await collectFromSitemaps(run, origin, announced, readSitemap);
  return { urls: collector.urls.map((entry) => entry.url), errors: run.errors };
}
