/**
 * Virtual scrolling for enhanced search, through the page reader
 * (services.scraper.scroll: robots.txt first, snapshots merged in the worker
 * pool). Without Chromium each result says why it was not used.
 */
import type { Scraper, ScrolledPage, ScrollOptions } from '../../../services/scrape/scraper.js';

export type Scroller =
  | { ok: true; scroll(url: string, options: ScrollOptions): Promise<ScrolledPage> }
  | { ok: false; reason: string };

export function scrollerFrom(scraper: Pick<Scraper, 'renderAvailable' | 'scroll'>): Scroller {
  if (!scraper.renderAvailable())
    return {
      ok: false,
      reason: 'virtual scrolling unavailable: Chromium was not found (see GET /api/v1/enhanced/features)',
    };
  return { ok: true, scroll: (url, options) => scraper.scroll(url, options) };
}
