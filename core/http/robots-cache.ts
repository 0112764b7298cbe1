/**
 * robots.txt rules for page fetches, fetched once per origin and kept in
 * memory. Like the major crawlers: a missing robots.txt or any 4xx allows
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

/** Our product token in User-agent lines. 1,000 rules parse in ~2 ms and cost ~0.25 ms per URL matched, about a check's round trip to the pool. */
export const ROBOTS_AGENT = 'Quarry';
export const MAX_LOCAL_ROBOTS_RULES = 1000;

export type RobotsFetcher = (robotsUrl: string) => Promise<Pick<OutboundResponse, 'status' | 'bytes' | 'headers'>>;

/** The rules one agent obeys, as a robots.txt of one `User-agent: *` group, and how many. */
export type ReducedRobots = { text: string; count: number };

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

export type RobotsMatcher = (urls: string[], signal?: AbortSignal) => Promise<boolean[]>; // which of urls the rules allow

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

interface Entry {
  check: RobotsMatcher | null;
  expires: number;
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<RobotsMatcher | null>>();
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
    const origin = new URL(url).origin;
    const check = await untilAborted(this.rulesFor(origin), signal);
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

  clear(): void {
    this.entries.clear();
  }

  // One fetch per origin, shared by concurrent callers and not tied to any
  // caller's signal: one caller giving up must not leave the others without rules.
  private rulesFor(origin: string): Promise<RobotsMatcher | null> {
    const cached = this.entries.get(origin);
    if (cached && cached.expires > Date.now()) return Promise.resolve(cached.check);
    let pending = this.pending.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<RobotsMatcher | null> {
    const robotsUrl = `${origin}/robots.txt`;
    let check: RobotsMatcher | null = null;
    let ttl = this.failureTtlMs;
    try {
      const response = await this.fetchRobots(robotsUrl);
      if (response.status >= 200 && response.status < 300) {
        check = await this.checkOf(robotsUrl, response.bytes, response.headers['content-type']);
        ttl = this.ttlMs;
      } else if (response.status < 500) {
        ttl = this.ttlMs;
      }
    } catch {
      // Unreachable or refused robots.txt, or a reader that failed: allow, and look again after failureTtlMs.
    }
    this.remember(origin, { check, expires: Date.now() + ttl });
    return check;
  }

  private async checkOf(
    robotsUrl: string,
    bytes: Uint8Array,
    contentType: string | undefined,
  ): Promise<RobotsMatcher | null> {
    const reader = this.options.reader;
    // Without a reader (core's tests, tools) the whole file is parsed here, however many rules it holds.
    const rules = reader
      ? await reader.robotsRules(bytes, contentType, this.agent)
      : { text: decodeBody(bytes, contentType), count: 0 };
    return robotsMatcher(robotsUrl, rules, this.agent, reader, this.options.maxLocalRules);
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
