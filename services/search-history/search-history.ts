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
import { KeyedLock } from '../../core/stores/keyed-lock.js';

export interface SearchHistoryOptions {
  /** Searches kept per caller; default 20. */
  maxPerCaller?: number;
  /** How long a caller's history lives after their last search; default 24 h. */
  ttlMs?: number;
}

/** Callers without a principal (CLI, jobs of no one) share this one. */
const ANONYMOUS = 'anonymous';
const MAX_QUERY_CHARS = 500;

export class SearchHistory {
  private readonly lock = new KeyedLock();
  private readonly maxPerCaller: number;
  private readonly ttlMs: number;

  constructor(
    private readonly cache: Keyv,
    private readonly logger: Logger,
    options: SearchHistoryOptions = {},
  ) {
    this.maxPerCaller = options.maxPerCaller ?? 20;
    this.ttlMs = options.ttlMs ?? 24 * 3600 * 1000;
  }

  /** Remembers queries (in order); never fails the search that records them. */
  async record(caller: Principal | undefined, queries: string[]): Promise<void> {
    const cleaned = queries.map((q) => q.trim().slice(0, MAX_QUERY_CHARS)).filter(Boolean);
    if (cleaned.length === 0) return;
    const key = keyOf(caller);
    try {
      await this.lock.run(key, async () => {
        const previous = ((await this.cache.get(key)) as string[] | undefined) ?? [];
        // A repeated search moves to the end instead of appearing twice.
        const repeated = new Set(cleaned.map((q) => q.toLowerCase()));
        const next = [...previous.filter((q) => !repeated.has(q.toLowerCase())), ...cleaned].slice(-this.maxPerCaller);
        await this.cache.set(key, next, this.ttlMs);
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record the search in the search history');
    }
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

function keyOf(caller: Principal | undefined): string {
  return `search-history:${caller?.id ?? ANONYMOUS}`;
}
