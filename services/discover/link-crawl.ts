/**
 * The link phase of discovery: the site crawl (site-crawl.ts) from base_url
 * over same-site links, up to maxDepth hops, with the robots.txt discovery
 * has read already, every URL it takes (a redirect's target too) offered to
 * the result list, until that list has more than it may hold. Pages go
 * through the outbound client (purpose 'page'), which applies robots.txt and
 * the address guard again; its refusals become error entries for that URL only.
 */
import { AppError } from '../../core/errors.js';
import type { DiscoveryRun } from './discovery-run.js';
import { crawlSite, type LinkDecision, type RobotsFilter } from './site-crawl.js';
import { isAssetUrl, isHtml, type SiteScope } from './site-urls.js';
import { MAX_URL_LENGTH } from './url-collector.js';
import type { DiscoveryFetcher, LinkParser } from './types.js';
import { bodyBytes } from '../extract/page-content.js';

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export interface LinkCrawlOptions {
  base: URL;
  scope: SiteScope;
  maxDepth: number;
  /** Which of urls robots.txt lets us take. */
  allowed: RobotsFilter;
  parseLinks: LinkParser;
  /** The outbound client discovery reads with (robots.txt itself is the one in allowed). */
  fetcher: DiscoveryFetcher;
}

/** What a page read tells discovery: whether its links were read (a same-site HTML page). */
interface LinkPage {
  linksRead: boolean;
}

export async function collectFromLinks(run: DiscoveryRun, options: LinkCrawlOptions): Promise<void> {
  const { base, scope, maxDepth, allowed, parseLinks, fetcher } = options;
  const result = await crawlSite<LinkPage>({
    baseUrl: base.href,
    maxDepth,
    maxBreadth: Number.POSITIVE_INFINITY,
    limit: Number.POSITIVE_INFINITY,
    readAll: false,
    concurrency: run.concurrency,
    signal: run.signal,
    // robots.txt is the one discover.ts read for its Sitemap lines, respectRobots applied.
    respectRobots: true,
    robots: allowed,
    fetcher,
    listRedirects: true,
    // The start URL is listed only as a link would be: in the site, not an asset, not over-long.
    decide: async (urls) => urls.map((url): LinkDecision => (scope.contains(url) && mayTake(url) ? 'follow' : 'drop')),
    read: async (url, signal) => {
      const response = await run.fetch(url, 'page', PAGE_ACCEPT, signal);
      // The start URL's redirect target counts as the site from here on (http → https on another port, say).
      if (url === base.href) scope.acceptRedirectOf(response.url);
      if (response.status < 200 || response.status >= 300)
        throw new AppError('UPSTREAM_FAILED', `${url} answered HTTP ${response.status}`);
      const linksRead = isHtml(response.headers['content-type']) && scope.contains(new URL(response.url));
      // The page's bytes go to the parser's thread (and may move there): its text is decoded there, not here.
      const links = linksRead ? await parseLinks(bodyBytes(response), response.url, signal) : [];
      // The whole page is read even past maxUrls, so total_found counts all it links to.
      return { finalUrl: response.url, links, value: { linksRead } };
    },
    onTake: (entry) => run.collector.offer(new URL(entry.url), 'link', { depth: entry.depth }),
    afterPage: (outcome) => {
      if (outcome.error) run.recordFailure(outcome.url, outcome.error);
      else if (outcome.page?.linksRead) run.reportProgress();
    },
    shouldStop: () => run.done,
  });
  for (const error of result.errors) run.recordFailure(error.url, error);
}

function mayTake(url: URL): boolean {
  return url.href.length <= MAX_URL_LENGTH && !isAssetUrl(url);
}
