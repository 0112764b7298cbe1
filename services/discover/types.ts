/** Shapes of URL discovery: what callers pass in and get back. */
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import type { SitemapDocument } from './sitemap-parser.js';
import type { PageContent } from '../extract/types.js';
import type { RobotsTxt } from '../../core/http/robots-cache.js';

/** The part of OutboundClient discovery needs; tests and callers pass the real client. */
export interface DiscoveryFetcher {
  fetch(request: OutboundRequest): Promise<OutboundResponse>;
  /** robots.txt from the client's one cache, read by its reader (the worker pool), Sitemap lines included. */
  robotsTxt(url: string, signal?: AbortSignal): Promise<RobotsTxt>;
}

export interface DiscoverOptions {
  baseUrl: string;
  /** 1..MAX_URLS_LIMIT. */
  maxUrls: number;
  /** Glob over path+query, or over the whole URL when it starts with "http"; see docs/discover.md. */
  pattern?: string;
  signal?: AbortSignal;
  /** Budget for the whole discovery; when it runs out the URLs found so far come back with a TIMEOUT error entry. */
  timeoutMs?: number;
  /** Link hops from baseUrl, 0..MAX_DEPTH_LIMIT; default 3. */
  maxDepth?: number;
  /** Documents fetched at once, 1..MAX_CONCURRENCY; default 4. */
  concurrency?: number;
  /** Skip links robots.txt disallows for Quarry; default true. Pass the outbound policy's respectRobots. */
  respectRobots?: boolean;
  /**
   * Reads a page's links (absolute URLs): the extraction pool's, so a hostile
   * page costs a worker thread under a deadline rather than the event loop.
   */
  parseLinks: LinkParser;
  /** Reads sitemaps (up to 50 MB unpacked), in the extraction pool too. */
  parseSitemap: SitemapReader;
}

/** A page's links, parsed off this thread from its bytes (decoded there) or its markup. */
export type LinkParser = (page: PageContent, pageUrl: string, signal: AbortSignal) => Promise<string[]>;

/** Reads a sitemap document (null when it is none), off this thread from its bytes (decoded there) or its text. */
export type SitemapReader = (sitemap: PageContent, signal: AbortSignal) => Promise<SitemapDocument | null>;

export type DiscoveredSource = 'sitemap' | 'link';

export interface DiscoveredUrl {
  url: string;
  source: DiscoveredSource;
  /** As the sitemap wrote it (W3C datetime), only for sitemap URLs that have one. */
  lastmod?: string;
  /** Link hops from base_url, only for link URLs (base_url itself is 0). */
  depth?: number;
}

export interface DiscoveryError {
  url: string;
  /** An ErrorCode from core/errors.ts. */
  code: string;
  message: string;
}

export interface DiscoverResult {
  base_url: string;
  urls: DiscoveredUrl[];
  /** Distinct matching URLs seen; more than urls.length when truncated (a lower bound then). */
  total_found: number;
  /** Sitemap documents read, indexes included, in the order read. */
  sitemaps: string[];
  robots: { found: boolean; sitemaps: string[] };
  /** True when more matching URLs existed than maxUrls. */
  truncated: boolean;
  errors: DiscoveryError[];
}

export interface DiscoverProgress {
  /** URLs in the result so far. */
  found: number;
  /** Documents fetched so far: robots.txt, sitemaps and pages. */
  fetched: number;
}

export type ProgressListener = (progress: DiscoverProgress) => void;
