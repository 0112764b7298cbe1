/**
 * robots.txt for page fetches and discovery (its Sitemap lines), fetched once
 * per origin and kept in memory. Like the major crawlers: a missing robots.txt or any 4xx allows
 * everything; a 5xx or network failure allows for now and is retried soon.
 * A RobotsReader (the app's worker pool) reads the file off the event loop.
 */
import { createRequire } from 'node:module';
import { untilAborted } from '../abort.js';
import { decodeBody } from './response-body.js';
import type { OutboundResponse } from './types.js';

/** The part of robots-parser's answer we read. */
export type Robots = { isAllowed(url: string, agent?: string): boolean | undefined; getSitemaps(): string[] };

// robots-parser is CommonJS typed as an ES default export, which NodeNext reads as a `.default` absent at run time.
export const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  contents: string,
) => Robots;

/**
 * Our product token in User-agent lines. 1,000 rules parse in ~2 ms and cost ~0.25 ms per URL matched, about a check's
 * round trip to the pool.
 */
export const ROBOTS_AGENT = 'Quarry';
export const MAX_LOCAL_ROBOTS_RULES = 1000;

export type RobotsFetcher = (robotsUrl: string) => Promise<Pick<OutboundResponse, 'status' | 'bytes' | 'headers'>>;

/**
 * The rules one agent obeys, as a robots.txt of one `User-agent: *` group, how many, and (from a reader) the Sitemap
 * lines.
 */
export type ReducedRobots = { text: string; count: number; sitemaps?: string[] };

/** Reads robots.txt off the event loop. Its failures (queue full, timeout) allow, as an unreachable robots.txt does. */
export interface RobotsReader {
  /** The rules of a fetched robots.txt that agent obeys. */
  robotsRules(
    bytes: Uint8Array,
    contentType: string | undefined,
    agent: string,
    signal?: AbortSignal,
  ): Promise<ReducedRobots>;
  /** Which of urls such rules let us fetch, matched in the reader (robotsMatcher sends it only large rule sets). */
  robotsAllowAll(rules: ReducedRobots, urls: string[], signal?: AbortSignal): Promise<boolean[]>;
}

// which of urls the rules allow
export type RobotsMatcher = (urls: string[], signal?: AbortSignal) => Promise<boolean[]>;

/** Where rules are matched, for page fetches and discovery alike: here up to maxLocalRules, else in the pool. */
export function robotsMatcher(
  robotsUrl: string,
  rules: ReducedRobots,
  agent: string,
  pool: Pick<RobotsReader, 'robotsAllowAll'> | undefined,
  maxLocalRules = MAX_LOCAL_ROBOTS_RULES,
): RobotsMatcher {
  if (pool && rules.count > maxLocalRules)
    return (urls, signal) => (urls.length === 0 ? Promise.resolve([]) : pool.robotsAllowAll(rules, urls, signal));
  const robots = robotsParser(robotsUrl, rules.text);
  return (urls) => Promise.resolve(urls.map((url) => robots.isAllowed(url, agent) !== false));
}

export interface RobotsCacheOptions {
  /** Product token matched against User-agent lines. */
  agent?: string;
  ttlMs?: number;
  /** How long a 5xx or failed fetch is remembered (as "allow everything"). */
  failureTtlMs?: number;
  maxOrigins?: number;
  /** Without one, robots.txt is parsed here (core's unit tests, tools that build an OutboundClient alone). */
  reader?: RobotsReader;
  maxLocalRules?: number; // default MAX_LOCAL_ROBOTS_RULES
}

/**
 * An origin's robots.txt as last fetched: its status (null: `failure` says why), its rules (null: none apply), their
 * check.
 */
export type RobotsTxt = {
  status: number | null;
  failure?: unknown;
  rules: ReducedRobots | null;
  check: RobotsMatcher | null;
};

type Entry = { robots: RobotsTxt; expires: number };

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<RobotsTxt>>();
  private readonly agent: string;
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxOrigins: number;

  constructor(
    private readonly fetchRobots: RobotsFetcher,
    private readonly options: RobotsCacheOptions = {},
  ) {
    this.agent = options.agent ?? ROBOTS_AGENT;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.failureTtlMs = options.failureTtlMs ?? 60_000;
    this.maxOrigins = options.maxOrigins ?? 10_000;
  }

  /** Whether robots.txt lets our agent fetch url. Rejects with signal.reason if the caller gives up waiting. */
  async isAllowed(url: string, signal?: AbortSignal): Promise<boolean> {
    const { check } = await this.read(url, signal);
    if (!check) return true;
    // A check the reader could not answer (queue full, timeout) allows, as an unreachable robots.txt does.
    return untilAborted(
      check([url], signal).then(
        ([allowed]) => allowed !== false,
        () => true,
      ),
      signal,
    );
  }

  /**
   * The robots.txt of url's origin, fetched at most once per TTL. Rejects with signal.reason if the caller gives up
   * waiting.
   */
  read(url: string, signal?: AbortSignal): Promise<RobotsTxt> {
    return untilAborted(this.rulesFor(new URL(url).origin), signal);
  }

  clear(): void {
    this.entries.clear();
  }

  // One fetch per origin, shared by concurrent callers and not tied to any
  // caller's signal: one caller giving up must not leave the others without rules.
  private rulesFor(origin: string): Promise<RobotsTxt> {
    const cached = this.entries.get(origin);
    if (cached && cached.expires > Date.now()) return Promise.resolve(cached.robots);
    let pending = this.pending.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<RobotsTxt> {
    const robotsUrl = `${origin}/robots.txt`;
    const robots: RobotsTxt = { status: null, rules: null, check: null };
    let ttl = this.failureTtlMs;
    try {
      const response = await this.fetchRobots(robotsUrl);
      robots.status = response.status;
      if (response.status >= 200 && response.status < 300) {
        const reader = this.options.reader;
        const contentType = response.headers['content-type'];
        // Without a reader (core's tests, tools) the whole file is parsed here, however many rules it holds.
        const rules = reader
          ? await reader.robotsRules(response.bytes, contentType, this.agent)
          : { text: decodeBody(response.bytes, contentType), count: 0 };
        robots.check = robotsMatcher(robotsUrl, rules, this.agent, reader, this.options.maxLocalRules);
        robots.rules = rules;
        ttl = this.ttlMs;
      } else if (response.status < 500) ttl = this.ttlMs;
    } catch (failure) {
      // Unreachable or refused robots.txt, or a reader that failed: allow, and look again after failureTtlMs.
      robots.failure = failure;
    }
    this.remember(origin, { robots, expires: Date.now() + ttl });
    return robots;
  }

  private remember(origin: string, entry: Entry): void {
    this.entries.delete(origin);
    if (this.entries.size >= this.maxOrigins) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(origin, entry);
  }
}
