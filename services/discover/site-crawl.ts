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
 * (information gain, enough URLs found).
 */
import { AppError, toAppError } from '../../core/errors.js';
import { PageReadError } from '../scrape/page-failures.js';
import { DiscoveryRun } from './discovery-run.js';
import { bestFirstFrontier, fifoFrontier, type Frontier } from './frontier.js';
import { runInOrder } from './ordered-pool.js';
import { allowEverything, readRobots } from './robots.js';
import { isAssetUrl, mayHoldLinks, normaliseUrl } from './site-urls.js';
import { MAX_URL_LENGTH, UrlCollector } from './url-collector.js';
import type { DiscoveryError, DiscoveryFetcher } from './types.js';

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

interface Candidate {
  url: URL;
  decision: LinkDecision;
  refused: boolean;
  priority?: number;
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
    task.follow && task.depth < options.maxDepth && mayHoldLinks(task.url);
  const needsReading = (task: Task<T>): boolean =>
    (options.readAll && task.entry !== null) || (followsLinks(task) && !full());
  const heard = (task: Task<T>, outcome: Pick<PageOutcome<T>, 'page' | 'error'>): void => {
    if (!options.afterPage) return;
    const said: PageOutcome<T> = { url: task.url.href, depth: task.depth, ...outcome };
    if (task.priority !== undefined) said.priority = task.priority;
    options.afterPage(said);
  };

  try {
    const allowed = await robotsFilter(options, robotsRun, base, signal);
    if (!(await allowed([base]))[0]) {
      result.errors.push({ url: base.href, ...robotsRefusal(base) });
      return result;
    }
    const [baseDecision] = await options.decide([base], signal);
    // The start URL is always read for its links; the filters only decide whether it is listed.
    startTask = take({ url: base, depth: 0, follow: true, refused: false }, baseDecision !== 'drop');

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

/** The caller's robots.txt filter, or the start origin's read here (respectRobots applied). */
async function robotsFilter<T>(
  options: SiteCrawlOptions<T>,
  robotsRun: DiscoveryRun,
  base: URL,
  signal: AbortSignal,
): Promise<(urls: URL[]) => Promise<boolean[]>> {
  if (options.robots) {
    const given = options.robots;
    return (urls) => given(urls, signal);
  }
  const robots = await readRobots(robotsRun, base.origin);
  // Another origin's rules are the reader's to apply.
  return (urls) => (options.respectRobots ? robots.allowed(urls, signal) : allowEverything(urls, signal));
}

interface Found<T> {
  seen: Set<string>;
  allowed: (urls: URL[]) => Promise<boolean[]>;
  options: Pick<SiteCrawlOptions<T>, 'decide' | 'rank' | 'onRobotsBlocked' | 'refusedLinks'>;
  signal: AbortSignal;
}

/**
 * A read page's links as candidates: normalised, within URL bounds, not assets, not seen yet, each once, robots
 * checked, with the caller's decision (and rank, best first).
 */
async function candidatesOf<T>(page: PageRead<T>, pageUrl: URL, found: Found<T>): Promise<Candidate[]> {
  const unique = new Map<string, URL>();
  for (const href of page.links) {
    const url = normaliseUrl(href, pageUrl);
    if (!url || !mayTake(url, found.seen) || unique.has(url.href)) continue;
    unique.set(url.href, url);
  }
  const candidates = await checked([...unique.values()], found);
  const kept = candidates.filter((candidate) => candidate.decision !== 'drop');
  if (found.options.rank && kept.length > 0) {
    const scores = await found.options.rank(
      kept.map((candidate) => candidate.url),
      page,
      found.signal,
    );
    kept.forEach((candidate, i) => (candidate.priority = scores[i] ?? 0));
  }
  return candidates;
}

/** Where the page landed, as a URL to take, when it differs from the one asked for (listRedirects). */
async function redirectOf<T>(page: PageRead<T>, task: { url: URL }, found: Found<T>): Promise<Candidate | undefined> {
  const landed = normaliseUrl(page.finalUrl);
  if (!landed || landed.href === task.url.href || !mayTake(landed, found.seen)) return undefined;
  const [candidate] = await checked([landed], { ...found, options: { ...found.options, refusedLinks: 'skip' } });
  return candidate && candidate.decision !== 'drop' ? candidate : undefined;
}

function mayTake(url: URL, seen: Set<string>): boolean {
  return url.href.length <= MAX_URL_LENGTH && !isAssetUrl(url) && !seen.has(url.href);
}

/** robots.txt's answers (refused URLs reported, and kept in 'list' mode), then the caller's decisions. */
async function checked<T>(urls: URL[], found: Found<T>): Promise<Candidate[]> {
  if (urls.length === 0) return [];
  const answers = await found.allowed(urls);
  const refused = urls.filter((_, i) => !answers[i]);
  if (found.options.onRobotsBlocked && refused.length > 0) found.options.onRobotsBlocked(refused.map((u) => u.href));
  const listRefused = found.options.refusedLinks === 'list';
  const kept = urls.map((url, i) => ({ url, refused: !answers[i] })).filter((c) => listRefused || !c.refused);
  if (kept.length === 0) return [];
  const decisions = await found.options.decide(
    kept.map((candidate) => candidate.url),
    found.signal,
  );
  return kept.map((candidate, i) => ({ ...candidate, decision: decisions[i] ?? 'drop' }));
}

function robotsRefusal(url: URL): Failure {
  return { code: 'ROBOTS_DISALLOWED', message: `robots.txt of ${url.origin} disallows ${url.href} for Quarry` };
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'the crawl was cancelled');
}
