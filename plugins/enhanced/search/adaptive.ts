/**
 * Adaptive crawling from one result page: follow in-site links best first
 * (ranked by link-relevance.ts: anchor text, URL words and embedding) while
 * new pages keep adding information about the query.
 *
 *   relevant blocks of a page = its pruned blocks (pruning.ts) holding a query term
 *   information gain          = ½ · (share of the page's relevant terms not seen before)
 *                             + ½ · (share of its relevant blocks not seen before)
 *
 * A page with gain < min_gain is a low-gain page; the crawl stops after
 * `patience` low-gain pages in a row, when max_pages pages (the result page
 * included) have been read, when no in-site link is left within max_depth
 * hops, or at the deadline.
 */
import { roundTo } from '../../../core/rounding.js';
import { createHash } from 'node:crypto';
import type { Discovery } from '../../../services/discover/discovery.js';
import type { PageOutcome, PageRead } from '../../../services/discover/site-crawl.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import { sameSite } from '../../../services/web-search/hosts.js';
import type { PageAnalysis } from '../../../services/page-analysis/analyse-page.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';
import { scoreLinks } from './link-relevance.js';
import { pruneBlocks } from './pruning.js';
import { contentTerms } from '../../../services/ranking/tokens.js';

export interface AdaptiveOptions {
  maxPages: number;
  maxDepth: number;
  minGain: number;
  patience: number;
}

export const ADAPTIVE_DEFAULTS: AdaptiveOptions = { maxPages: 10, maxDepth: 2, minGain: 0.1, patience: 2 };
const MAX_COLLECTED_CHARS = 20_000;

export type StopReason = 'information_gain_below_threshold' | 'max_pages' | 'no_more_links' | 'deadline' | 'cancelled';

export interface CrawledPage {
  url: string;
  depth: number;
  link_score: number | null;
  information_gain: number;
  relevant_blocks: number;
  new_terms: number;
  status: 'ok' | 'failed';
  error?: string;
  /** Why a failed page was not read: the reader's page failure code (ROBOTS_DISALLOWED, HTTP_ERROR, BLOCKED …). */
  error_code?: string;
}

export interface AdaptiveReport {
  pages_visited: number;
  stopped_because: StopReason;
  pages: CrawledPage[];
  relevant_terms: number;
  /** Relevant blocks new to the crawl, page by page (at most 20,000 characters). */
  collected_text: string;
}

type ReadPage = Pick<PageAnalysis, 'blocks' | 'links'>;

export interface AdaptiveDeps {
  /** The one crawler (services/discover/site-crawl.ts), with the outbound policy's robots.txt setting. */
  discovery: Pick<Discovery, 'crawlSite'>;
  /** Throws PageReadError with the reader's failure code when the page cannot be read. */
  fetchHtml(url: string, signal?: AbortSignal): Promise<{ html: string; finalUrl: string }>;
  /** A page's blocks and links, read off the event loop (the extraction pool's page task). */
  readPage(html: string, url: string): Promise<ReadPage>;
  embedder: Embedder | null;
  deadline: number;
  signal?: AbortSignal;
}

function fingerprint(text: string): string {
  return createHash('sha1').update(text.toLowerCase().replace(/\s+/g, ' ').trim()).digest('hex');
}

export class KnowledgeState {
  readonly terms = new Set<string>();
  readonly blocks = new Set<string>();
  collected = '';

  /** Adds a page's relevant content (its text blocks); answers its information gain. */
  absorb(blocks: TextBlock[], queryTerms: Set<string>): { gain: number; relevant: number; newTerms: number } {
    const relevant = pruneBlocks(blocks).filter((b) => contentTerms(b.text).some((t) => queryTerms.has(t)));
    if (relevant.length === 0) return { gain: 0, relevant: 0, newTerms: 0 };
    const terms = new Set(relevant.flatMap((b) => contentTerms(b.text)));
    const newTerms = [...terms].filter((t) => !this.terms.has(t));
    const fresh = relevant.filter((b) => !this.blocks.has(fingerprint(b.text)));
    for (const t of terms) this.terms.add(t);
    for (const b of fresh) {
      this.blocks.add(fingerprint(b.text));
      if (this.collected.length < MAX_COLLECTED_CHARS) this.collected += (this.collected ? '\n\n' : '') + b.text;
    }
    const gain = 0.5 * (newTerms.length / terms.size) + 0.5 * (fresh.length / relevant.length);
    return { gain: roundTo(gain, 3), relevant: relevant.length, newTerms: newTerms.length };
  }
}

/**
 * A best-first crawl (the site crawl ranked by link relevance, one page at a time) from the result page, already
 * read; the stopping rule above decides when it ends.
 */
export async function adaptiveCrawl(
  query: string,
  start: { url: string; html: string },
  deps: AdaptiveDeps,
  options: AdaptiveOptions,
): Promise<AdaptiveReport> {
  const queryTerms = new Set(contentTerms(query));
  const state = new KnowledgeState();
  const startUrl = new URL(start.url);
  const pages: CrawledPage[] = [];
  let lowStreak = 0;
  let stopped: StopReason | undefined;

  const heard = (outcome: PageOutcome<ReadPage>): void => {
    const isStart = pages.length === 0;
    const entry = {
      url: isStart ? start.url : outcome.url,
      depth: outcome.depth,
      link_score: outcome.priority ?? null,
    };
    if (outcome.page) {
      const absorbed = state.absorb(outcome.page.blocks, queryTerms);
      pages.push({
        ...entry,
        information_gain: absorbed.gain,
        relevant_blocks: absorbed.relevant,
        new_terms: absorbed.newTerms,
        status: 'ok',
      });
      if (!isStart) lowStreak = absorbed.gain < options.minGain ? lowStreak + 1 : 0;
    } else {
      // A page that cannot be read adds nothing; it counts against the budget and the patience alike.
      pages.push({
        ...entry,
        information_gain: 0,
        relevant_blocks: 0,
        new_terms: 0,
        status: 'failed',
        error: outcome.error!.message,
        error_code: outcome.error!.code,
      });
      lowStreak++;
    }
    if (!isStart && lowStreak >= options.patience) stopped = 'information_gain_below_threshold';
    else if (pages.length >= options.maxPages) stopped = 'max_pages';
    else if (performance.now() >= deps.deadline) stopped = 'deadline';
  };
  const read = async (url: string, signal: AbortSignal): Promise<PageRead<ReadPage>> => {
    const page = await deps.fetchHtml(url, signal);
    return pageRead(await deps.readPage(page.html, page.finalUrl || url), page.finalUrl || url);
  };

  try {
    await deps.discovery.crawlSite<ReadPage>({
      baseUrl: start.url,
      start: pageRead(await deps.readPage(start.html, start.url), start.url),
      maxDepth: options.maxDepth,
      maxBreadth: Number.POSITIVE_INFINITY,
      limit: Number.POSITIVE_INFINITY,
      readAll: true,
      // Best first is exact only one page at a time: the next page is chosen after the last one's links are ranked.
      concurrency: 1,
      ...(deps.signal ? { signal: deps.signal } : {}),
      // A disallowed link is ranked like any other and, at its turn, listed failed with ROBOTS_DISALLOWED.
      refusedLinks: 'list',
      decide: async (urls) => urls.map((url) => (sameSite(url, startUrl) ? 'follow' : 'drop')),
      rank: (urls, from, signal) => {
        const byUrl = new Map((from.value.links?.links ?? []).map((link) => [link.url, link]));
        const described = urls.map((url) => ({ url: url.href, text: byUrl.get(url.href)?.text ?? '' }));
        return scoreLinks(query, described, deps.embedder, signal);
      },
      read,
      afterPage: heard,
      shouldStop: () => stopped !== undefined,
    });
  } catch (error) {
    if (!deps.signal?.aborted) throw error;
    stopped = 'cancelled';
  }
  return {
    pages_visited: pages.length,
    stopped_because: stopped ?? 'no_more_links',
    pages,
    relevant_terms: state.terms.size,
    collected_text: state.collected,
  };
}

function pageRead(page: ReadPage, finalUrl: string): PageRead<ReadPage> {
  return { finalUrl, links: (page.links?.links ?? []).map((link) => link.url), value: page };
}
