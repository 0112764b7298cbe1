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
import { toAppError } from '../../../core/errors.js';
import type { PageErrorCode } from '../../../services/scrape/page-failures.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import { isAssetUrl } from '../../../services/discover/site-urls.js';
import { sameSite } from '../../../services/web-search/hosts.js';
import type { PageAnalysis } from '../../../services/page-analysis/analyse-page.js';
import type { CollectedLinks } from '../../../services/page-analysis/anchor-links.js';
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

/** A page the reader could not read, keeping the reader's failure code (services/scrape/page-failures.ts). */
export class PageReadError extends Error {
  constructor(
    readonly code: PageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PageReadError';
  }
}

function failureCodeOf(error: unknown): string {
  return error instanceof PageReadError ? error.code : toAppError(error).code;
}

export interface AdaptiveReport {
  pages_visited: number;
  stopped_because: StopReason;
  pages: CrawledPage[];
  relevant_terms: number;
  /** Relevant blocks new to the crawl, page by page (at most 20,000 characters). */
  collected_text: string;
}

export interface AdaptiveDeps {
  fetchHtml(url: string, signal?: AbortSignal): Promise<{ html: string; finalUrl: string }>;
  /** A page's blocks and links, read off the event loop (the extraction pool's page task). */
  readPage(html: string, url: string): Promise<Pick<PageAnalysis, 'blocks' | 'links'>>;
  embedder: Embedder | null;
  deadline: number;
  signal?: AbortSignal;
}

interface Frontier {
  url: string;
  depth: number;
  score: number;
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

export async function adaptiveCrawl(
  query: string,
  start: { url: string; html: string },
  deps: AdaptiveDeps,
  options: AdaptiveOptions,
): Promise<AdaptiveReport> {
  const queryTerms = new Set(contentTerms(query));
  const state = new KnowledgeState();
  const startUrl = new URL(start.url);
  const seen = new Set<string>([withoutHash(startUrl)]);
  const frontier: Frontier[] = [];
  const pages: CrawledPage[] = [];

  const enqueueLinks = async (collected: CollectedLinks | undefined, depth: number): Promise<void> => {
    if (depth >= options.maxDepth || !collected) return;
    const candidates = collected.links.filter((link) => {
      const url = new URL(link.url);
      return sameSite(url, startUrl) && !isAssetUrl(url) && !seen.has(link.url);
    });
    const scores = await scoreLinks(query, candidates, deps.embedder, deps.signal);
    candidates.forEach((link, i) => {
      seen.add(link.url);
      frontier.push({ url: link.url, depth: depth + 1, score: scores[i]! });
    });
  };

  const startPage = await deps.readPage(start.html, start.url);
  const first = state.absorb(startPage.blocks, queryTerms);
  pages.push({
    url: start.url,
    depth: 0,
    link_score: null,
    information_gain: first.gain,
    relevant_blocks: first.relevant,
    new_terms: first.newTerms,
    status: 'ok',
  });
  await enqueueLinks(startPage.links, 0);

  let lowStreak = 0;
  let stopped: StopReason = 'no_more_links';
  for (;;) {
    if (deps.signal?.aborted) {
      stopped = 'cancelled';
      break;
    }
    if (pages.length >= options.maxPages) {
      stopped = 'max_pages';
      break;
    }
    if (performance.now() >= deps.deadline) {
      stopped = 'deadline';
      break;
    }
    if (frontier.length === 0) {
      stopped = 'no_more_links';
      break;
    }
    // Best first; ties keep the order links were found in.
    let bestIndex = 0;
    frontier.forEach((f, i) => {
      if (f.score > frontier[bestIndex]!.score) bestIndex = i;
    });
    const next = frontier.splice(bestIndex, 1)[0]!;
    try {
      const page = await deps.fetchHtml(next.url, deps.signal);
      const read = await deps.readPage(page.html, page.finalUrl || next.url);
      const absorbed = state.absorb(read.blocks, queryTerms);
      pages.push({
        url: next.url,
        depth: next.depth,
        link_score: next.score,
        information_gain: absorbed.gain,
        relevant_blocks: absorbed.relevant,
        new_terms: absorbed.newTerms,
        status: 'ok',
      });
      await enqueueLinks(read.links, next.depth);
      lowStreak = absorbed.gain < options.minGain ? lowStreak + 1 : 0;
    } catch (error) {
      // A page that cannot be read adds nothing; it counts against the budget and the patience alike.
      pages.push({
        url: next.url,
        depth: next.depth,
        link_score: next.score,
        information_gain: 0,
        relevant_blocks: 0,
        new_terms: 0,
        status: 'failed',
        error: (error as Error).message,
        error_code: failureCodeOf(error),
      });
      lowStreak++;
    }
    if (lowStreak >= options.patience) {
      stopped = 'information_gain_below_threshold';
      break;
    }
  }
  return {
    pages_visited: pages.length,
    stopped_because: stopped,
    pages,
    relevant_terms: state.terms.size,
    collected_text: state.collected,
  };
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
