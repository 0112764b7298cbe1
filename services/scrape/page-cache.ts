/**
 * The reader's page cache, on the shared cache store (keyv: in memory, or
 * Redis when configured), used when a caller passes a cache mode. Only
 * successful pages are written: a timeout or a CAPTCHA page must not be
 * served again for an hour.
 *
 * The key holds everything that changes what is read (the URL, rendering and
 * its captures, include_html, the extraction options); what a caller cuts
 * from a page afterwards shares entries.
 */
import { createHash } from 'node:crypto';
import type { Keyv } from 'keyv';
import type { Logger } from '../../core/logger.js';

export const CACHE_MODES = ['enabled', 'read_only', 'write_only', 'bypass', 'disabled'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** enabled: read+write; read_only: read; write_only: write; bypass and disabled: neither. */
export function cacheReads(mode: CacheMode): boolean {
  return mode === 'enabled' || mode === 'read_only';
}

export function cacheWrites(mode: CacheMode): boolean {
  return mode === 'enabled' || mode === 'write_only';
}

const KEY_PREFIX = 'page:v1:';

/** `shape` is every option that changes the page read, in a fixed order. */
export function cacheKey(url: string, shape: unknown[]): string {
  return (
    KEY_PREFIX +
    createHash('sha256')
      .update(JSON.stringify([url, ...shape]))
      .digest('hex')
  );
}

export class PageCache<T> {
  constructor(
    private readonly store: Keyv,
    private readonly logger: Logger,
  ) {}

  /** A cache failure (Redis down) degrades to a miss, never to a failed page. */
  async read(key: string): Promise<T | null> {
    try {
      return ((await this.store.get(key)) as T | undefined) ?? null;
    } catch (error) {
      this.logger.warn({ err: error }, 'page cache read failed; reading the page instead');
      return null;
    }
  }

  async write(key: string, value: T, ttlSeconds: number): Promise<void> {
    try {
      await this.store.set(key, value, ttlSeconds * 1000);
    } catch (error) {
      this.logger.warn({ err: error }, 'page cache write failed');
    }
  }
}
