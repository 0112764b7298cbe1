/** The result list: deduplicated, filtered by the pattern, cut at maxUrls; over-long URLs are ignored. */
import type { UrlMatcher } from './url-pattern.js';

/** Longest URL discovery reports or follows: the sitemap protocol's limit; longer ones are ignored. */
export const MAX_URL_LENGTH = 2048;
import type { DiscoveredSource, DiscoveredUrl } from './types.js';

export class UrlCollector {
  readonly urls: DiscoveredUrl[] = [];
  private readonly seen = new Set<string>();
  private overflowed = false;

  constructor(
    private readonly maxUrls: number,
    private readonly matches: UrlMatcher,
  ) {}

  /** Records url unless seen before or filtered out; the first source to offer a URL wins. */
  offer(url: URL, source: DiscoveredSource, extra: { lastmod?: string; depth?: number } = {}): void {
    const key = url.href;
    if (key.length > MAX_URL_LENGTH || this.seen.has(key) || !this.matches(url)) return;
    this.seen.add(key);
    if (this.urls.length >= this.maxUrls) {
      this.overflowed = true;
      return;
    }
    const entry: DiscoveredUrl = { url: key, source };
    if (extra.lastmod !== undefined) entry.lastmod = extra.lastmod;
    if (extra.depth !== undefined) entry.depth = extra.depth;
    this.urls.push(entry);
  }

  /** A matching URL beyond maxUrls was seen: discovery can stop. */
  get truncated(): boolean {
    return this.overflowed;
  }

  /** Distinct matching URLs seen, those past maxUrls included. */
  get totalFound(): number {
    return this.seen.size;
  }
}
