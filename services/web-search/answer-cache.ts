/**
 * The search answers' cache: the shared cache store (memory or Redis) with a
 * small in-process memo of answers already decoded in front of it. The store
 * keeps JSON, so without the memo every hit of a repeated search parses the
 * same answer again (the largest cost of a cached search, by profile).
 * Memoised answers are frozen (callers copy before changing anything),
 * bounded in count and size, and live no longer than their store entry nor
 * MEMO_MAX_MS (so a cache cleared on another instance is seen soon). Frozen
 * with core/frozen-json.ts, their parts are JSON-encoded once for every hit.
 *
 * Keys are the request's identity as text. The memo is keyed by that text
 * as it is; only the store, which may be shared and keeps keys short, gets
 * its digest (`<namespace>:<sha256>`), worked out when the memo misses.
 */
import { hash } from 'node:crypto';
import type { Keyv } from 'keyv';
import { deepFreeze } from '../../core/frozen-json.js';

const MEMO_ENTRIES = 128;
const MEMO_CHARS = 8_000_000;
const MEMO_MAX_MS = 60_000;

interface Memo<T> {
  value: T;
  expires: number;
  chars: number;
}

export class AnswerCache<T extends object> {
  private readonly memo = new Map<string, Memo<T>>();
  private chars = 0;

  constructor(
    private readonly store: Keyv,
    private readonly namespace: string,
    private readonly onLookup?: (hit: boolean) => void,
  ) {}

  /** The store's key for an identity: the one-shot hash, a third of createHash's cost. */
  storeKey(key: string): string {
    return `${this.namespace}:${hash('sha256', key)}`;
  }

  async get(key: string): Promise<T | undefined> {
    const now = Date.now();
    const memo = this.memo.get(key);
    if (memo && memo.expires > now) {
      this.onLookup?.(true);
      return memo.value;
    }
    if (memo) this.forget(key);
    const raw = await this.store.getRaw<T>(this.storeKey(key));
    const value = raw?.value ?? undefined;
    this.onLookup?.(value !== undefined);
    if (value !== undefined) this.remember(key, value, raw?.expires ?? Number.POSITIVE_INFINITY);
    return value;
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    await this.store.set(this.storeKey(key), value, ttlMs);
    this.remember(key, value, Date.now() + ttlMs);
  }

  private remember(key: string, value: T, expires: number): void {
    const chars = deepFreeze(value);
    if (chars > MEMO_CHARS / 4) return;
    this.forget(key);
    this.memo.set(key, { value, expires: Math.min(expires, Date.now() + MEMO_MAX_MS), chars });
    this.chars += chars;
    for (const oldest of this.memo.keys()) {
      if (this.memo.size <= MEMO_ENTRIES && this.chars <= MEMO_CHARS) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const memo = this.memo.get(key);
    if (!memo) return;
    this.chars -= memo.chars;
    this.memo.delete(key);
  }
}
