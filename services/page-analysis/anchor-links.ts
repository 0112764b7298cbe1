/**
 * Every link of a page (the whole page, not only its main content), merged
 * by URL, each internal (the page's site: services/web-search/hosts.ts) or external, with its
 * anchor text, rel values and nofollow (rel nofollow, ugc or sponsored).
 * Read in the extraction worker pool (services/page-analysis/analyse-page.ts);
 * enhanced search scores them for relevance.
 */
import { baseUrlOf, parseDocument } from '../extract/parse-document.js';
import { sameSite } from '../web-search/hosts.js';

export interface AnalysedLink {
  url: string;
  text: string;
  type: 'internal' | 'external';
  nofollow: boolean;
  rel: string[];
  occurrences: number;
  relevance: number;
}

export interface LinkAnalysis {
  total: number;
  internal: number;
  external: number;
  nofollow: number;
  /** mailto:, tel:, javascript: and in-page (#…) links, not listed. */
  skipped: number;
  links: AnalysedLink[];
}

const MAX_LINKS = 2000;
const NOFOLLOW = new Set(['nofollow', 'ugc', 'sponsored']);

export interface CollectedLinks {
  links: Omit<AnalysedLink, 'relevance'>[];
  /** mailto:, tel:, javascript: and in-page links, not listed. */
  skipped: number;
}

/** The page's links without scores, merged by URL, in document order. */
export function collectLinks(html: string, pageUrl: string): CollectedLinks {
  const document = parseDocument(html);
  const base = baseUrlOf(document, pageUrl);
  const page = new URL(pageUrl);
  const byUrl = new Map<string, Omit<AnalysedLink, 'relevance'>>();
  let skipped = 0;
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = (anchor.getAttribute('href') ?? '').trim();
    let url: URL;
    try {
      url = new URL(href, base ?? page);
    } catch {
      skipped++;
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || href.startsWith('#')) {
      skipped++;
      continue;
    }
    url.hash = '';
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const text =
      (anchor.textContent ?? anchor.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim() ||
      (anchor.getAttribute('title') ?? '').trim();
    const existing = byUrl.get(url.href);
    if (existing) {
      existing.occurrences++;
      if (!existing.text && text) existing.text = text;
      existing.nofollow &&= rel.some((r) => NOFOLLOW.has(r));
      continue;
    }
    if (byUrl.size >= MAX_LINKS) continue;
    byUrl.set(url.href, {
      url: url.href,
      text,
      type: sameSite(url, page) ? 'internal' : 'external',
      nofollow: rel.some((r) => NOFOLLOW.has(r)),
      rel,
      occurrences: 1,
    });
  }
  return { links: [...byUrl.values()], skipped };
}
