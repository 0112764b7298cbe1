/**
 * A breadth-first crawl from one URL with the bounds of a Tavily crawl or map:
 * link hops (maxDepth), links taken from each page (maxBreadth) and URLs taken
 * in all (limit). Which links count is the caller's decision (path and domain
 * filters, external links), made per page in one call; robots.txt of the
 * start URL's origin is read once and its rules skip links there. Pages are
 * read by the caller's reader (a plain fetch for a map, the scraper for a
 * crawl), so the outbound policy applies to every request. Results come back
 * in breadth-first order whatever the network timing (ordered-pool.ts). The
 * start URL's sitemaps may add URLs at depth 0 (sitemap-seeds.ts), decided like
 * links.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { DiscoveryRun } from './discovery-run.js';
import { runInOrder } from './ordered-pool.js';
import { allowEverything, readRobots } from './robots.js';
import { isAssetUrl, mayHoldLinks, normaliseUrl } from './site-urls.js';
import { MAX_URL_LENGTH, UrlCollector } from './url-collector.js';
import { sitemapUrls } from './sitemap-seeds.js';
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
  timeoutMs: number;
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
}

export interface CrawledUrl<T> {
  url: string;
  depth: number;
  /** The reader's answer, when the page was read. */
  page?: T;
  /** Why the page could not be read. */
  error?: { code: string; message: string };
}

export interface SiteCrawlResult<T> {
  base_url: string;
  /** Taken URLs in breadth-first order; a URL the deadline left unread has neither page nor error. */
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

interface Task<T> {
  url: URL;
  depth: number;
  follow: boolean;
  /** Null when the URL is read only for its links (the start URL when the filters leave it out). */
  entry: CrawledUrl<T> | null;
}

interface Candidate {
  url: URL;
  decision: LinkDecision;
}

export async function crawlSite<T>(
  options: SiteCrawlOptions<T>,
  onProgress?: (progress: SiteCrawlProgress) => void,
): Promise<SiteCrawlResult<T>> {
  const base = normaliseUrl(options.baseUrl);
  if (!base) throw new AppError('INVALID_INPUT', 'url must be an absolute http(s) URL', { details: { field: 'url' } });
  if (options.signal?.aborted) throw cancelled();
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const finished = new AbortController();
  const signal = AbortSignal.any([deadline, finished.signal, ...(options.signal ? [options.signal] : [])]);
  // robots.txt is read as discovery reads it; its collector is unused here.
  const robotsRun = new DiscoveryRun(options.fetcher, new UrlCollector(1, () => true), 1, signal, undefined);
  const result: SiteCrawlResult<T> = { base_url: base.href, urls: [], timedOut: false, errors: robotsRun.errors };
  const seen = new Set<string>([base.href]);
  const queue: Array<Task<T>> = [];
  let read = 0;

  const full = (): boolean => result.urls.length >= options.limit;
  const take = (url: URL, depth: number, decision: LinkDecision, listed = true): void => {
    const entry: CrawledUrl<T> | null = listed ? { url: url.href, depth } : null;
    if (entry) result.urls.push(entry);
    queue.push({ url, depth, follow: decision === 'follow', entry });
  };
  const followsLinks = (task: Task<T>): boolean =>
    task.follow && task.depth < options.maxDepth && options.sitemaps !== 'only' && mayHoldLinks(task.url);
  const needsReading = (task: Task<T>): boolean =>
    (options.readAll && task.entry !== null) || (followsLinks(task) && !full());

  try {
    const robots = await readRobots(robotsRun, base.origin);
    /** Which of urls robots.txt lets us take (another origin's rules are the reader's to apply). */
    const allowed = (urls: URL[]): Promise<boolean[]> =>
      options.respectRobots ? robots.allowed(urls, signal) : allowEverything(urls, signal);
    if (!(await allowed([base]))[0]) {
      result.errors.push({
        url: base.href,
        code: 'ROBOTS_DISALLOWED',
        message: `robots.txt of ${base.origin} disallows ${base.href} for Quarry`,
      });
      return result;
    }
    const [baseDecision] = await options.decide([base], signal);
    // The start URL is always read for its links; the filters only decide whether it is listed.
    take(base, 0, 'follow', baseDecision !== 'drop');
    if (options.sitemaps && options.parseSitemap) {
      const listed = await sitemapUrls(options.fetcher, base.origin, robots.sitemaps, options.parseSitemap, {
        maxUrls: options.limit,
        signal,
      });
      result.errors.push(...listed.errors);
      const listing: PageRead<T> = { finalUrl: base.href, links: listed.urls, value: undefined as T };
      // Sitemap URLs are the start URL's peers (depth 0), decided like links; no maxBreadth bound, limit is theirs.
      for (const { url, decision } of await candidatesOf(listing, base, allowed, options, signal)) {
        if (full()) break;
        if (decision === 'drop' || seen.has(url.href)) continue;
        seen.add(url.href);
        take(url, 0, decision);
      }
    }

    await runInOrder(queue, {
      concurrency: options.concurrency,
      shouldStop: () => signal.aborted,
      work: async (task) => {
        if (!needsReading(task)) return null;
        const page = await options.read(task.url.href, signal);
        if (!followsLinks(task)) return { page, candidates: [] as Candidate[] };
        return { page, candidates: await candidatesOf(page, task.url, allowed, options, signal) };
      },
      commit: (task, outcome) => {
        if (!outcome.ok) {
          if (task.entry) task.entry.error = { code: outcome.error.code, message: outcome.error.message };
          else result.errors.push({ url: task.url.href, code: outcome.error.code, message: outcome.error.message });
          return;
        }
        if (!outcome.value) return;
        const { page, candidates } = outcome.value;
        read++;
        if (task.entry) task.entry.page = page.value;
        const landed = normaliseUrl(page.finalUrl);
        if (landed) seen.add(landed.href);
        let taken = 0;
        for (const { url, decision } of candidates) {
          if (taken >= options.maxBreadth || full()) break;
          if (decision === 'drop' || seen.has(url.href)) continue;
          seen.add(url.href);
          take(url, task.depth + 1, decision);
          taken++;
        }
        onProgress?.({ taken: result.urls.length, read });
      },
    });
  } catch (error) {
    if (!deadline.aborted || options.signal?.aborted) throw options.signal?.aborted ? cancelled() : toAppError(error);
  } finally {
    finished.abort();
  }
  if (options.signal?.aborted) throw cancelled();
  result.timedOut = deadline.aborted;
  return result;
}

/**
 * A read page's links as candidates: normalised, within URL bounds, not assets, robots-allowed, each once, with the
 * caller's decision.
 */
async function candidatesOf<T>(
  page: PageRead<T>,
  pageUrl: URL,
  allowed: (urls: URL[]) => Promise<boolean[]>,
  options: Pick<SiteCrawlOptions<T>, 'decide' | 'onRobotsBlocked'>,
  signal: AbortSignal,
): Promise<Candidate[]> {
  const unique = new Map<string, URL>();
  for (const href of page.links) {
    const url = normaliseUrl(href, pageUrl);
    if (!url || url.href.length > MAX_URL_LENGTH || isAssetUrl(url) || unique.has(url.href)) continue;
    unique.set(url.href, url);
  }
  const answers = await allowed([...unique.values()]);
  const urls = [...unique.values()].filter((_, i) => answers[i]);
  if (options.onRobotsBlocked && urls.length < unique.size)
    options.onRobotsBlocked([...unique.values()].filter((_, i) => !answers[i]).map((url) => url.href));
  if (urls.length === 0) return [];
  const decisions = await options.decide(urls, signal);
  return urls.map((url, i) => ({ url, decision: decisions[i] ?? 'drop' }));
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'the crawl was cancelled');
}
