/**
 * robots.txt rules for page fetches, fetched once per origin and kept in
 * memory. Like the major crawlers: a missing robots.txt or any 4xx allows
 * everything; a 5xx or network failure allows for now and is retried soon.
 */
import { createRequire } from 'node:module';
import { untilAborted } from '../abort.js';

interface Robots {
  isAllowed(url: string, agent?: string): boolean | undefined;
}

// robots-parser is CommonJS whose typings claim an ES default export; under
// NodeNext that types as `.default`, which does not exist at run time.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => Robots;

export type RobotsFetcher = (robotsUrl: string) => Promise<{ status: number; body: string }>;

export interface RobotsCacheOptions {
  /** Product token matched against User-agent lines. */
  agent?: string;
  ttlMs?: number;
  /** How long a 5xx or failed fetch is remembered (as "allow everything"). */
  failureTtlMs?: number;
  maxOrigins?: number;
}

interface Entry {
  robots: Robots | null;
  expires: number;
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Robots | null>>();
  private readonly agent: string;
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxOrigins: number;

  constructor(private readonly fetchRobots: RobotsFetcher, options: RobotsCacheOptions = {}) {
    this.agent = options.agent ?? 'Quarry';
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.failureTtlMs = options.failureTtlMs ?? 60_000;
    this.maxOrigins = options.maxOrigins ?? 10_000;
  }

  /** Whether robots.txt lets our agent fetch url. Rejects with signal.reason if the caller gives up waiting. */
  async isAllowed(url: string, signal?: AbortSignal): Promise<boolean> {
    const origin = new URL(url).origin;
    const robots = await untilAborted(this.rulesFor(origin), signal);
    if (!robots) return true;
    return robots.isAllowed(url, this.agent) !== false;
  }

  clear(): void {
    this.entries.clear();
  }

  // One fetch per origin, shared by concurrent callers and not tied to any
  // caller's signal: one caller giving up must not leave the others without rules.
  private rulesFor(origin: string): Promise<Robots | null> {
    const cached = this.entries.get(origin);
    if (cached && cached.expires > Date.now()) return Promise.resolve(cached.robots);
    let pending = this.pending.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<Robots | null> {
    const robotsUrl = `${origin}/robots.txt`;
    let robots: Robots | null = null;
    let ttl = this.failureTtlMs;
    try {
      const response = await this.fetchRobots(robotsUrl);
      if (response.status >= 200 && response.status < 300) {
        robots = robotsParser(robotsUrl, response.body);
        ttl = this.ttlMs;
      } else if (response.status < 500) {
        ttl = this.ttlMs;
      }
    } catch {
      // Unreachable or refused robots.txt: allow, and look again after failureTtlMs.
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

