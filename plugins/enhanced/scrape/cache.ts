/**
 * The page cache behind cache_mode, on services.stores.cache (keyv: in
 * memory, or Redis when configured). Only successful pages are written: a
 * timeout or a CAPTCHA page must not be served again for an hour.
 *
 * The key holds everything that changes what is fetched (the URL, browser or
 * not, wait_until, screenshot, pdf, include_html); output-only options
 * (extract_*, response_format) are applied when answering, so they share
 * entries.
 */
import { createHash } from 'node:crypto';
import type { Keyv } from 'keyv';
import type { Logger } from '../../../core/logger.js';
import type { PageRecord } from './page-record.js';
import type { CACHE_MODES } from './schema.js';

export type CacheMode = (typeof CACHE_MODES)[number];

/** enabled: read+write; read_only: read; write_only: write; bypass and disabled: neither. */
export function cacheReads(mode: CacheMode): boolean {
  return mode === 'enabled' || mode === 'read_only';
}

export function cacheWrites(mode: CacheMode): boolean {
  return mode === 'enabled' || mode === 'write_only';
}

export interface FetchShape {
  browser: boolean;
  waitUntil: string | null;
  screenshot: boolean;
  pdf: boolean;
  includeHtml: boolean;
}

const KEY_PREFIX = 'enhanced-scrape:v1:';

export function cacheKey(url: string, shape: FetchShape): string {
  const digest = createHash('sha256').update(JSON.stringify([url, shape.browser, shape.waitUntil, shape.screenshot, shape.pdf, shape.includeHtml])).digest('hex');
  return KEY_PREFIX + digest;
}

export class PageCache {
  constructor(private readonly store: Keyv, private readonly logger: Logger) {}

  /** A cache failure (Redis down) degrades to a miss, never to a failed page. */
  async read(key: string): Promise<PageRecord | null> {
    try {
      return ((await this.store.get(key)) as PageRecord | undefined) ?? null;
    } catch (error) {
      this.logger.warn({ err: error }, 'scrape cache read failed; fetching instead');
      return null;
    }
  }

  async write(key: string, record: PageRecord, ttlSeconds: number): Promise<void> {
    try {
      await this.store.set(key, record, ttlSeconds * 1000);
    } catch (error) {
      this.logger.warn({ err: error }, 'scrape cache write failed');
    }
  }
}
