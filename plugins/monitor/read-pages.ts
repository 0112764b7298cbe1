/**
 * Reading the new pages of a check for deep_analysis: a thin module over the
 * shared scraper (services/scrape), so the check does not depend on how
 * pages are fetched. Pages that cannot be read come back with empty text
 * (the analysis then uses their snippets).
 */
import type { Scraper } from '../../services/scrape/scraper.js';
import type { ReadPage } from './analysis.js';

export type ReadPages = (urls: string[], signal: AbortSignal) => Promise<ReadPage[]>;

export function pageReader(scraper: Pick<Scraper, 'scrapeMany'>, timeoutMs: number): ReadPages {
  return async (urls, signal) => {
    const pages = await scraper.scrapeMany(urls, {
      timeoutMs,
      signal,
      extract: { includeImages: false, includeLinks: false, markdown: false },
    });
    return pages.map((page) => ({ url: page.url, title: page.title, text: page.errorCode ? '' : page.text }));
  };
}
