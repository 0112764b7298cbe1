/**
 * URL discovery as areas see it: whole-site discovery and the bounded site
 * crawl, with the outbound client for every request (address guard, robots
 * txt), the configured robots.txt policy, and links and sitemaps parsed in
 * the extraction worker pool. Areas never hold the outbound client itself.
 */
import { discoverUrls } from './discover.js';
import { crawlSite, type SiteCrawlOptions, type SiteCrawlProgress, type SiteCrawlResult } from './site-crawl.js';
import type {
  DiscoverOptions,
  DiscoverResult,
  DiscoveryFetcher,
  LinkParser,
  ProgressListener,
  SitemapReader,
} from './types.js';

export interface DiscoveryParsing {
  links: LinkParser;
  sitemap: SitemapReader;
}

export class Discovery {
  constructor(
    private readonly fetcher: DiscoveryFetcher,
    private readonly parsing: DiscoveryParsing,
    private readonly respectRobots: boolean,
  ) {}

  /** robots.txt, sitemaps, then in-site links (discover.ts). */
  discoverUrls(
    options: Omit<DiscoverOptions, 'respectRobots' | 'parseLinks' | 'parseSitemap'>,
    onProgress?: ProgressListener,
  ): Promise<DiscoverResult> {
    return discoverUrls(
      this.fetcher,
      {
        ...options,
        respectRobots: this.respectRobots,
        parseLinks: (page, pageUrl, signal) => this.parsing.links(page, pageUrl, signal),
        parseSitemap: (sitemap, signal) => this.parsing.sitemap(sitemap, signal),
      },
      onProgress,
    );
  }

  /** A breadth-first crawl whose pages the caller reads (site-crawl.ts), sitemaps read in the worker pool. */
  crawlSite<T>(
    options: Omit<SiteCrawlOptions<T>, 'fetcher' | 'respectRobots' | 'parseSitemap'>,
    onProgress?: (progress: SiteCrawlProgress) => void,
  ): Promise<SiteCrawlResult<T>> {
    return crawlSite(
      {
        ...options,
        fetcher: this.fetcher,
        respectRobots: this.respectRobots,
        parseSitemap: (sitemap, signal) => this.parsing.sitemap(sitemap, signal),
      },
      onProgress,
    );
  }
}
