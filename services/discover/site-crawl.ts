/**
 * The one crawler: from one URL with the bounds of a Tavily crawl or map —
 * link hops (maxDepth), links taken from each page (maxBreadth) and URLs taken
 * in all (limit). Which links count is the caller's decision (path and domain
 * filters, external links), made per page in one call; robots.txt of the
 * start URL's origin is read once (or handed in) and its rules keep links
 * there from being requested. Pages are read by the caller's reader (a plain
 * fetch for a map or discovery, the scraper for a crawl), so the outbound
 * policy applies to every request. Breadth-first by default; best first when
 * the caller ranks links (enhanced search's adaptive crawl). Results come back
 * in frontier order whatever the network timing (ordered-pool.ts); hooks hear
 * each URL taken and each page read, and a stop hook may end the crawl
 * (information gain, enough URLs found). The start URL's sitemaps may add URLs
 * at depth 0 (sitemap-seeds.ts), decided like links.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { PageReadError } from '../scrape/page-failures.js';
import { DiscoveryRun } from './discovery-run.js';
import { bestFirstFrontier, fifoFrontier, type Frontier } from './frontier.js';
import { runInOrder } from './ordered-pool.js';
import { sitemapUrls } from './sitemap-seeds.js';
import { allowEverything, readRobots } from './robots.js';
import { mayHoldLinks, normaliseUrl } from './site-urls.js';
import { UrlCollector } from './url-collector.js';
import { candidatesOf, redirectOf, robotsRefusal, type Candidate } from './crawl-links.js';
import type {
  CrawledUrl,
  PageOutcome,
  PageRead,
  SiteCrawlOptions,
  SiteCrawlProgress,
  SiteCrawlResult,
} from './crawl-types.js';

export type {
  CrawledUrl,
  LinkDecision,
  PageOutcome,
  PageRead,
  RobotsFilter,
  SiteCrawlOptions,
  SiteCrawlProgress,
  SiteCrawlResult,
} from './crawl-types.js';

interface Task<T> {
  url: URL;
  depth: number;
  follow: boolean;
  /** Null when the URL is read only for its links (the start URL when the filters leave it out). */
  entry: CrawledUrl<T> | null;
  priority?: number;
  /** robots.txt disallows it ('list' mode): failed at its turn, never requested. */
  refused: boolean;
}

type Failure = { code: string; message: string };

interface Visit<T> {
  page?: PageRead<T>;
  landed?: Candidate;
  candidates?: Candidate[];
  failure?: Failure;
}

export async function crawlSite<T>(
  options: SiteCrawlOptions<T>,
  onProgress?: (progress: SiteCrawlProgress) => void,
): Promise<SiteCrawlResult<T>> {
  const base = normaliseUrl(options.baseUrl);
  if (!base) throw new AppError('INVALID_INPUT', 'url must be an absolute http(s) URL', { details: { field: 'url' } });
  if (options.signal?.aborted) throw cancelled();
  const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const finished = new AbortController();
  const signal = AbortSignal.any([
    finished.signal,
    ...(deadline ? [deadline] : []),
    ...(options.signal ? [options.signal] : []),
  ]);
  // robots.txt is read as discovery reads it; its collector is unused here.
  const robotsRun = new DiscoveryRun(options.fetcher, new UrlCollector(1, () => true), 1, signal, undefined);
  const result: SiteCrawlResult<T> = { base_url: base.href, urls: [], timedOut: false, errors: robotsRun.errors };
  const seen = new Set<string>([base.href]);
  const frontier: Frontier<Task<T>> = options.rank ? bestFirstFrontier() : fifoFrontier();
  let read = 0;
  let startTask: Task<T> | undefined;

  const full = (): boolean => result.urls.length >= options.limit;
  const take = (task: Omit<Task<T>, 'entry'>, listed = true): Task<T> => {
    const entry: CrawledUrl<T> | null = listed ? { url: task.url.href, depth: task.depth } : null;
    if (entry) {
      if (task.refused) entry.error = robotsRefusal(task.url);
      result.urls.push(entry);
      options.onTake?.(entry);
    }
    const queued = { ...task, entry };
    frontier.add(queued, task.priority ?? 0);
    return queued;
  };
  const followsLinks = (task: Task<T>): boolean =>
    task.follow && task.depth < options.maxDepth && options.sitemaps !== 'only' && mayHoldLinks(task.url);
  const needsReading = (task: Task<T>): boolean =>
    (options.readAll && task.entry !== null) || (followsLinks(task) && !full());
  const heard = (task: Task<T>, outcome: Pick<PageOutcome<T>, 'page' | 'error'>): void => {
    if (!options.afterPage) return;
    const said: PageOutcome<T> = { url: task.url.href, depth: task.depth, ...outcome };
    if (task.priority !== undefined) said.priority = task.priority;
    options.afterPage(said);
  };

  try {
    const { allowed, sitemaps } = await robotsFilter(options, robotsRun, base, signal);
    if (!(await allowed([base]))[0]) {
      result.errors.push({ url: base.href, ...robotsRefusal(base) });
      return result;
    }
    const [baseDecision] = await options.decide([base], signal);
    // The start URL is always read for its links; the filters only decide whether it is listed.
    startTask = take({ url: base, depth: 0, follow: true, refused: false }, baseDecision !== 'drop');
    if (options.sitemaps && options.parseSitemap) {
      const listed = await sitemapUrls(options.fetcher, base.origin, sitemaps, options.parseSitemap, {
        maxUrls: options.limit,
        signal,
      });
      result.errors.push(...listed.errors);
      const listing: PageRead<T> = { finalUrl: base.href, links: listed.urls, value: undefined as T };
      // Sitemap URLs are the start URL's peers (depth 0), decided like links; no maxBreadth bound, limit is theirs.
      for (const { url, decision, refused } of await candidatesOf(listing, base, { seen, allowed, options, signal })) {
        if (full()) break;
        if (decision === 'drop' || seen.has(url.href)) continue;
        seen.add(url.href);
        take({ url, depth: 0, follow: decision === 'follow', refused });
      }
    }

    await runInOrder(frontier, {
      concurrency: options.concurrency,
      shouldStop: () => signal.aborted || options.shouldStop?.() === true,
      work: async (task): Promise<Visit<T> | null> => {
        if (!needsReading(task)) return null;
        if (task.refused) return { failure: robotsRefusal(task.url) };
        try {
          const page = task === startTask && options.start ? options.start : await options.read(task.url.href, signal);
          const found = { seen, allowed, options, signal };
          const landed = options.listRedirects ? await redirectOf(page, task, found) : undefined;
          const candidates = followsLinks(task) ? await candidatesOf(page, task.url, found) : [];
          return { page, ...(landed ? { landed } : {}), candidates };
        } catch (error) {
          // The reader's own failure codes (HTTP_ERROR, BLOCKED …) stay as they are; anything else is an AppError.
          if (error instanceof PageReadError) return { failure: { code: error.code, message: error.message } };
          throw error;
        }
      },
      commit: (task, outcome) => {
        const failure = outcome.ok
          ? outcome.value?.failure
          : { code: outcome.error.code, message: outcome.error.message };
        if (failure) {
          if (task.entry) task.entry.error = failure;
          else result.errors.push({ url: task.url.href, ...failure });
          heard(task, { error: failure });
          return;
        }
        if (!outcome.ok || !outcome.value?.page) return;
        const { page, landed, candidates = [] } = outcome.value;
        read++;
        if (task.entry) task.entry.page = page.value;
        if (landed && !seen.has(landed.url.href) && !full()) {
          // Listed with the page just read (it is that page), never queued to be read again.
          seen.add(landed.url.href);
          const entry: CrawledUrl<T> = { url: landed.url.href, depth: task.depth, page: page.value };
          result.urls.push(entry);
          options.onTake?.(entry);
        }
        const landedUrl = normaliseUrl(page.finalUrl);
        if (landedUrl) seen.add(landedUrl.href);
        let taken = 0;
        for (const { url, decision, refused, priority } of candidates) {
          if (taken >= options.maxBreadth || full()) break;
          if (decision === 'drop' || seen.has(url.href)) continue;
          seen.add(url.href);
          const next = { url, depth: task.depth + 1, follow: decision === 'follow', refused };
          take(priority === undefined ? next : { ...next, priority });
          taken++;
        }
        onProgress?.({ taken: result.urls.length, read });
        heard(task, { page: page.value });
      },
    });
  } catch (error) {
    if (!deadline?.aborted || options.signal?.aborted) throw options.signal?.aborted ? cancelled() : toAppError(error);
  } finally {
    finished.abort();
  }
  if (options.signal?.aborted) throw cancelled();
  result.timedOut = deadline?.aborted ?? false;
  return result;
}

/**
 * The caller's robots.txt filter, or the start origin's read here (respectRobots applied), with the Sitemap lines
 * read here (none with the caller's filter: the sitemap seeds then try the usual paths).
 */
async function robotsFilter<T>(
  options: SiteCrawlOptions<T>,
  robotsRun: DiscoveryRun,
  base: URL,
  signal: AbortSignal,
): Promise<{ allowed: (urls: URL[]) => Promise<boolean[]>; sitemaps: string[] }> {
  if (options.robots) {
    const given = options.robots;
    return { allowed: (urls) => given(urls, signal), sitemaps: [] };
  }
  const robots = await readRobots(robotsRun, base.origin);
  // Another origin's rules are the reader's to apply.
  return {
    allowed: (urls) => (options.respectRobots ? robots.allowed(urls, signal) : allowEverything(urls, signal)),
    sitemaps: robots.sitemaps,
  };
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'the crawl was cancelled');
}
