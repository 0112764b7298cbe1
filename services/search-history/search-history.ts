/**
 * The searches each caller made recently, newest last: what next-search
 * prediction works from when a request gives neither a context nor recent
 * searches. Kept in the cache store (in memory, or on Redis so every
 * process of an installation sees them), per principal — a digest of the
 * API key over HTTP (or its group), never the key — bounded in count and age.
 * Each principal reads its own alone, admins included.
 */
import type { Keyv } from 'keyv';
import type { Logger } from '../../core/logger.js';
import type { Principal } from '../../core/principal.js';
import { BoundedMap } from '../../core/stores/bounded-map.js';
import { KeyedLock } from '../../core/stores/keyed-lock.js';

export interface SearchHistoryOptions {
  /** Searches kept per caller; default 20. */
  maxPerCaller?: number;
  /** How long a caller's history lives after their last search; default 24 h. */
  ttlMs?: number;
  /** For tests: the clock. */
  now?: () => number;
}

/** Callers without a principal (CLI, jobs of no one) share this one. */
const ANONYMOUS = 'anonymous';
const MAX_QUERY_CHARS = 500;
/**
 * A caller repeating the search this process recorded for them moments ago
 * changes nothing (it is already the newest, its expiry a few seconds old),
 * so the store is not read and written again: that round trip was the
 * largest share of a cached search's own work, by profile. Another
 * instance's searches in between are not seen here; at worst the repeat
 * stays behind them in the list.
 */
const REPEAT_WINDOW_MS = 10_000;
const REPEATS_REMEMBERED = 1000;

export class SearchHistory {
  private readonly lock = new KeyedLock();
  /** Per caller key: the single query last recorded by this process, and when. */
  private readonly lastRecorded = new BoundedMap<string, { query: string; at: number }>(
    REPEATS_REMEMBERED,
    Number.POSITIVE_INFINITY,
  );
  private readonly maxPerCaller: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly cache: Keyv,
    private readonly logger: Logger,
    options: SearchHistoryOptions = {},
  ) {
    this.maxPerCaller = options.maxPerCaller ?? 20;
    this.ttlMs = options.ttlMs ?? 24 * 3600 * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Remembers queries (in order); never fails the search that records them. */
  async record(caller: Principal | undefined, queries: string[]): Promise<void> {
    const key = keyOf(caller);
    // One query, the common case, is checked for a repeat before any list is built.
    if (queries.length === 1 && this.isRepeat(key, cleanQuery(queries[0]!))) return;
    const cleaned = queries.map(cleanQuery).filter(Boolean);
    if (cleaned.length === 0) return;
    try {
      await this.lock.run(key, async () => {
        const previous = ((await this.cache.get(key)) as string[] | undefined) ?? [];
        // A repeated search moves to the end instead of appearing twice.
        const repeated = new Set(cleaned.map((q) => q.toLowerCase()));
        const next = [...previous.filter((q) => !repeated.has(q.toLowerCase())), ...cleaned].slice(-this.maxPerCaller);
        await this.cache.set(key, next, this.ttlMs);
        this.remember(key, cleaned);
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record the search in the search history');
    }
  }

  /** Whether this one query is the caller's last, recorded here moments ago. */
  private isRepeat(key: string, query: string): boolean {
    const last = this.lastRecorded.get(key);
    return query !== '' && last !== undefined && last.query === query && this.now() - last.at < REPEAT_WINDOW_MS;
  }

  private remember(key: string, cleaned: string[]): void {
    this.lastRecorded.delete(key);
    if (cleaned.length !== 1) return;
    this.lastRecorded.set(key, { query: cleaned[0]!, at: this.now() });
  }

  /** The caller's most recent searches, oldest first, at most `limit`. */
  async recent(caller: Principal | undefined, limit: number): Promise<string[]> {
    try {
      const list = ((await this.cache.get(keyOf(caller))) as string[] | undefined) ?? [];
      return list.slice(-limit);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not read the search history');
      return [];
    }
  }
}

function cleanQuery(query: string): string {
  return query.trim().slice(0, MAX_QUERY_CHARS);
}

function keyOf(caller: Principal | undefined): string {
  return `search-history:${caller?.id ?? ANONYMOUS}`;
}
