/** Shapes of the site crawl (site-crawl.ts): what callers pass in, hear and get back. */
import type { DiscoveryError, DiscoveryFetcher, SitemapReader } from './types.js';

/** follow: taken, and its links followed while within maxDepth; leaf: taken, links not followed; drop: neither. */
export type LinkDecision = 'follow' | 'leaf' | 'drop';

export interface PageRead<T> {
  /** Where the request landed after redirects. */
  finalUrl: string;
  /** The page's links, absolute. */
  links: string[];
  value: T;
}

/** Which of urls robots.txt lets the crawl take. */
export type RobotsFilter = (urls: URL[], signal: AbortSignal) => Promise<boolean[]>;

export interface SiteCrawlOptions<T> {
  baseUrl: string;
  /** Link hops from baseUrl (baseUrl is 0). */
  maxDepth: number;
  /** New links taken from each page, in document order. */
  maxBreadth: number;
  /** URLs taken in all, baseUrl included when listed. */
  limit: number;
  /** Read every taken URL (a crawl returns their content); false reads only pages whose links are followed (a map). */
  readAll: boolean;
  concurrency: number;
  /** Budget for the whole crawl; without one only the signal or afterPage ends it early. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Skip links robots.txt disallows for Quarry; pass the outbound policy's respectRobots. */
  respectRobots: boolean;
  /** For robots.txt, from the outbound client's one cache (read in the worker pool there). */
  fetcher: DiscoveryFetcher;
  read(url: string, signal: AbortSignal): Promise<PageRead<T>>;
  /** One decision per URL, in order; called with baseUrl first, then with each read page's new links. */
  decide(urls: URL[], signal: AbortSignal): Promise<LinkDecision[]>;
  /** Hears the links robots.txt kept the crawl from (never requested), each page's at a time. */
  onRobotsBlocked?(urls: string[]): void;
  /**
   * The start URL's sitemaps (robots.txt's, else /sitemap.xml): `include` takes the URLs they list at depth 0
   * beside the links, `only` takes those and follows no link. Absent: sitemaps are not read.
   */
  sitemaps?: 'include' | 'only';
  /** Reads a sitemap document (the worker pool's); needed for sitemaps. */
  parseSitemap?: SitemapReader;
  /** The start page as the caller has read it already: used as its read, never requested again. */
  start?: PageRead<T>;
  /**
   * Best first instead of breadth-first: one score per new link the decision kept, from the page that links it
   * (higher is read sooner; equal scores in the order found).
   */
  rank?(urls: URL[], from: PageRead<T>, signal: AbortSignal): Promise<number[]>;
  /** Hears each URL as it is taken, in frontier order: baseUrl first (when listed), then each page's new links. */
  onTake?(entry: CrawledUrl<T>): void;
  /** Hears each page read or failed, in frontier order. */
  afterPage?(outcome: PageOutcome<T>): void;
  /** Asked before each page is started and before each read is taken in; true ends the crawl. */
  shouldStop?(): boolean;
  /** robots.txt of baseUrl's origin as the caller has read it (respectRobots applied); default: read here. */
  robots?: RobotsFilter;
  /**
   * Links robots.txt disallows: 'skip' (default) leaves them out; 'list' takes them like any other link (decided,
   * ranked, counted) and, at their turn, lists them failed with ROBOTS_DISALLOWED without a request. Either way
   * onRobotsBlocked hears them.
   */
  refusedLinks?: 'skip' | 'list';
  /** List where a page redirected to as a URL of its own, at the page's depth, with that page; default: only seen. */
  listRedirects?: boolean;
}

export interface CrawledUrl<T> {
  url: string;
  depth: number;
  /** The reader's answer, when the page was read. */
  page?: T;
  /** Why the page could not be read. */
  error?: { code: string; message: string };
}

/** One page as the crawl got to it, for afterPage. */
export interface PageOutcome<T> {
  url: string;
  depth: number;
  /** The rank of the link that led here; none for the start page or without rank. */
  priority?: number;
  page?: T;
  error?: { code: string; message: string };
}

export interface SiteCrawlResult<T> {
  base_url: string;
  /** Taken URLs in frontier order; a URL the deadline left unread has neither page nor error. */
  urls: Array<CrawledUrl<T>>;
  /** The time budget ran out before the crawl finished. */
  timedOut: boolean;
  /** Problems not tied to one taken URL (robots.txt unreadable, the start URL refused). */
  errors: DiscoveryError[];
}

export interface SiteCrawlProgress {
  taken: number;
  read: number;
}
