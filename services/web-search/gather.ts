/**
 * gatherSources: the sources for one or more queries, read and deduplicated
 * (docs/agent.md, "Sources").
 *
 * 1. The pages are found (find-pages.ts: fan-out per query, merge by URL,
 *    interleaving, domain filters, earlier rounds' URLs skipped) under a
 *    share of the deadline that leaves time for reading.
 * 2. The first `readLimit` candidates are read by the scraper under what is
 *    left of the deadline (cancellation stops it).
 * 3. Pages whose text is a near duplicate of a better-ranked page (or of one
 *    read in an earlier round) are dropped.
 *
 * Nothing here throws for one failing engine or page: each failure is kept
 * with its stage and reason.
 */
import { roundScore } from '../../core/rounding.js';
import type { SafeSearch, TimeRange } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import type { ExtractOptions } from '../extract/types.js';
import type { Scraper, ScrapedPage } from '../scrape/scraper.js';
import { containment, shingles, type Shingles, NEAR_DUPLICATE_CONTAINMENT } from '../sources/near-duplicates.js';
import { screenText, type SafetyFinding } from '../sources/safety.js';
import type { DomainFilter } from './domain-filter.js';
import type { EnginePlan } from './engine-plans.js';
import { findPages, type EngineReport } from './find-pages.js';
import { normalizeUrl } from './url-normalize.js';

export type { DomainFilter } from './domain-filter.js';
export type { EngineReport } from './find-pages.js';

/** What earlier rounds gathered: their URLs are skipped and near duplicates of their texts dropped. */
export interface SeenSources {
  urls: Set<string>;
  texts: Array<{ url: string; shingles: Shingles }>;
}

export function newSeenSources(): SeenSources {
  return { urls: new Set(), texts: [] };
}

export interface GatherOptions {
  plans: EnginePlan[];
  /** Results wanted per engine and query (engines that page are asked for more pages). */
  resultsPerEngine: number;
  /** Candidates read, best first; 0 reads none. */
  readLimit: number;
  /** Candidates kept in all (read or not); at least readLimit. */
  keepLimit?: number;
  javascript?: boolean;
  language: string;
  safeSearch: SafeSearch;
  timeRange?: TimeRange;
  region?: string;
  domains?: DomainFilter;
  extract?: ExtractOptions;
  /** Keep each page's HTML (for images with their descriptions, favicons). */
  keepHtml?: boolean;
  /** Absolute performance.now() by which everything must be done. */
  deadline: number;
  /** Share of the time left that the engines get when pages are read; default 0.5. */
  engineShare?: number;
  signal: AbortSignal;
  seen?: SeenSources;
  /** Progress messages (one per engine answer and per reading step). */
  progress?(message: string): void;
}

export interface Source {
  url: string;
  title: string;
  snippet: string;
  engines: string[];
  /** The engines' merged score (0..1, 1 for the best of its query). */
  engineScore: number;
  publishedDate: string | null;
  author: string | null;
  thumbnail: string | null;
  /** The queries whose results held it. */
  queries: string[];
  /** The page as read; null when it was not read. */
  page: ScrapedPage | null;
  /** True when the page was read and has text. */
  read: boolean;
  /** The extracted text when read, else "". */
  text: string;
  /** Instructions aimed at an agent found in the text (flagged, never followed). */
  agentInstructions: SafetyFinding[];
}

export interface SourceFailure {
  url: string;
  stage: 'page' | 'duplicate';
  code: string;
  reason: string;
}

export interface Gathering {
  /** Kept sources (near duplicates removed), interleaved engine order. */
  sources: Source[];
  failures: SourceFailure[];
  engines: EngineReport;
  queries: string[];
  /** Distinct results the engines returned (after domain filters and earlier rounds' URLs). */
  found: number;
  pagesRead: number;
  pagesFailed: number;
  duplicates: number;
}

export async function gatherSources(
  engines: EngineService,
  scraper: Scraper,
  options: GatherOptions,
): Promise<Gathering> {
  const { signal } = options;
  const share = options.readLimit > 0 ? (options.engineShare ?? 0.5) : 1;
  // Without earlier rounds, near duplicates are still found among this round's pages.
  const seen = options.seen ?? newSeenSources();
  const found = await findPages(engines, {
    plans: options.plans,
    resultsPerEngine: options.resultsPerEngine,
    language: options.language,
    safeSearch: options.safeSearch,
    ...(options.timeRange ? { timeRange: options.timeRange } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(options.domains ? { domains: options.domains } : {}),
    skip: seen.urls,
    deadline: performance.now() + Math.max(0, options.deadline - performance.now()) * share,
    signal,
    onEngineDone: (engine, query, done, total) =>
      options.progress?.(`engine ${engine} answered "${query}" (${done}/${total})`),
  });
  const candidates = found.pages;
  const keep = candidates.slice(0, Math.max(options.readLimit, options.keepLimit ?? options.readLimit));
  const toRead = keep.slice(0, options.readLimit);

  let pages: ScrapedPage[] = [];
  if (toRead.length > 0) {
    options.progress?.(`reading ${toRead.length} pages`);
    pages = await scraper.scrapeMany(
      toRead.map((c) => c.result.url),
      {
        javascript: options.javascript ?? false,
        timeoutMs: Math.max(1, Math.floor(options.deadline - performance.now())),
        signal,
        extract: options.extract ?? { markdown: true, includeImages: true, includeLinks: false },
        includeHtml: options.keepHtml ?? false,
      },
    );
    if (signal.aborted) throw new AppError('CANCELLED', 'gathering sources was cancelled');
  }

  const failures: SourceFailure[] = [];
  const sources: Source[] = [];
  let duplicates = 0;
  let pagesFailed = 0;
  keep.forEach(({ result, queries: foundBy }, index) => {
    const page = pages[index] ?? null;
    const read = page !== null && page.success && page.text.trim().length > 0;
    if (page && !read) {
      pagesFailed++;
      failures.push({
        url: result.url,
        stage: 'page',
        code: page.errorCode ?? 'EXTRACTION_FAILED',
        reason: page.failureReason ?? 'no text could be extracted',
      });
    }
    if (read) {
      const own = shingles(page.text);
      const original = own && seen.texts.find((t) => containment(own, t.shingles) >= NEAR_DUPLICATE_CONTAINMENT);
      if (original) {
        duplicates++;
        failures.push({
          url: result.url,
          stage: 'duplicate',
          code: 'DUPLICATE',
          reason: `near duplicate of ${original.url}`,
        });
        return;
      }
      if (own) seen.texts.push({ url: result.url, shingles: own });
    }
    seen.urls.add(normalizeUrl(result.url));
    sources.push({
      url: result.url,
      title: (read && page.title) || result.title,
      snippet: result.snippet,
      engines: result.engines,
      engineScore: roundScore(result.score),
      publishedDate: (read ? page.metadata.publishedDate : null) ?? result.publishedDate ?? null,
      author: (read ? page.metadata.author : null) ?? result.author ?? null,
      thumbnail: result.thumbnail ?? null,
      queries: foundBy,
      page,
      read,
      text: read ? page.text : '',
      agentInstructions: read ? screenText(page.text) : [],
    });
  });

  return {
    sources,
    failures,
    engines: found.engines,
    queries: found.queries,
    found: candidates.length,
    pagesRead: sources.filter((s) => s.read).length,
    pagesFailed,
    duplicates,
  };
}
