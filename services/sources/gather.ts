/**
 * gatherSources: the sources for one or more queries, read and deduplicated
 * (docs/agent.md, "Sources").
 *
 * 1. Every distinct query is fanned out to its engines in parallel
 *    (services/web-search/engine-fanout.ts), under a share of the deadline
 *    that leaves time for reading.
 * 2. Each query's lists are merged by normalised URL and scored as the search
 *    pipeline does (services/web-search/merge.ts); the queries' lists are then
 *    interleaved rank by rank, so every query gets its best results read.
 * 3. Domain filters apply; URLs gathered in earlier rounds are skipped.
 * 4. The first `readLimit` candidates are read by the scraper under what is
 *    left of the deadline (cancellation stops it).
 * 5. Pages whose text is a near duplicate of a better-ranked page (or of one
 *    read in an earlier round) are dropped.
 *
 * Nothing here throws for one failing engine or page: each failure is kept
 * with its stage and reason.
 */
import type { SafeSearch, TimeRange } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import type { ExtractOptions } from '../extract/types.js';
import type { Scraper, ScrapedPage } from '../scrape/scraper.js';
import { fanOut, type EngineOutcome } from '../web-search/engine-fanout.js';
import { mergeEngineResults, type MergedResult } from '../web-search/merge.js';
import { normalizeUrl } from '../web-search/url-normalize.js';
import { containment, shingles, type Shingles, NEAR_DUPLICATE_CONTAINMENT } from './near-duplicates.js';
import { screenText, type SafetyFinding } from './safety.js';
import type { EnginePlan } from './topic-engines.js';

export interface DomainFilter {
  include?: string[];
  exclude?: string[];
}

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

export interface EngineReport {
  used: string[];
  succeeded: string[];
  failed: string[];
  errors: Record<string, { code: string; message: string }>;
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

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

export function passesDomains(url: string, filter: DomainFilter | undefined): boolean {
  if (!filter) return true;
  const host = hostOf(url);
  if (host === null) return false;
  const matches = (domain: string) => {
    const d = domain.toLowerCase().replace(/^www\./, '');
    return host === d || host.endsWith(`.${d}`);
  };
  if (filter.include?.length && !filter.include.some(matches)) return false;
  if (filter.exclude?.some(matches)) return false;
  return true;
}

/** Rank 1 of every list, then rank 2 of every list, …; the first occurrence of a URL wins. */
function interleave(lists: Array<{ query: string; results: MergedResult[] }>): Array<{ result: MergedResult; queries: string[] }> {
  const byKey = new Map<string, { result: MergedResult; queries: string[] }>();
  const longest = Math.max(0, ...lists.map((l) => l.results.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const { query, results } of lists) {
      const result = results[rank];
      if (!result) continue;
      const key = normalizeUrl(result.url);
      const found = byKey.get(key);
      if (found) {
        if (!found.queries.includes(query)) found.queries.push(query);
        for (const engine of result.engines) if (!found.result.engines.includes(engine)) found.result.engines.push(engine);
      } else {
        byKey.set(key, { result, queries: [query] });
      }
    }
  }
  return [...byKey.values()];
}

function engineReport(outcomes: EngineOutcome[]): EngineReport {
  const used = [...new Set(outcomes.map((o) => o.engine))];
  const succeeded = used.filter((engine) => outcomes.some((o) => o.engine === engine && !o.error));
  const errors: EngineReport['errors'] = {};
  for (const outcome of outcomes) if (outcome.error && !succeeded.includes(outcome.engine)) errors[outcome.engine] = outcome.error;
  return { used, succeeded, failed: Object.keys(errors), errors };
}

export async function gatherSources(engines: EngineService, scraper: Scraper, options: GatherOptions): Promise<Gathering> {
  const { signal } = options;
  const byQuery = new Map<string, string[]>();
  for (const plan of options.plans) byQuery.set(plan.query, [...new Set([...(byQuery.get(plan.query) ?? []), plan.engine])]);
  const queries = [...byQuery.keys()];
  const share = options.readLimit > 0 ? (options.engineShare ?? 0.5) : 1;
  const engineDeadline = performance.now() + Math.max(0, options.deadline - performance.now()) * share;

  let answered = 0;
  const total = options.plans.length;
  const perQuery = await Promise.all(
    queries.map(async (query) => {
      const outcomes = await fanOut(engines, {
        engines: byQuery.get(query)!,
        query: {
          query,
          language: options.language,
          safeSearch: options.safeSearch,
          ...(options.timeRange ? { timeRange: options.timeRange } : {}),
          ...(options.region ? { region: options.region } : {}),
        },
        firstPage: 1,
        wantedPerEngine: options.resultsPerEngine,
        deadline: engineDeadline,
        signal,
        onEngineDone: (engine) => options.progress?.(`engine ${engine} answered "${query}" (${++answered}/${total})`),
      });
      const merged = mergeEngineResults(outcomes.filter((o) => !o.error).map((o) => ({ engine: o.engine, weight: o.weight, results: o.results })));
      return { query, outcomes, results: merged };
    }),
  );
  if (signal.aborted) throw new AppError('CANCELLED', 'gathering sources was cancelled');

  // Without earlier rounds, near duplicates are still found among this round's pages.
  const seen = options.seen ?? newSeenSources();
  const candidates = interleave(perQuery).filter(({ result }) => passesDomains(result.url, options.domains) && !seen.urls.has(normalizeUrl(result.url)));
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
      failures.push({ url: result.url, stage: 'page', code: page.errorCode ?? 'EXTRACTION_FAILED', reason: page.failureReason ?? 'no text could be extracted' });
    }
    if (read) {
      const own = shingles(page.text);
      const original = own && seen.texts.find((t) => containment(own, t.shingles) >= NEAR_DUPLICATE_CONTAINMENT);
      if (original) {
        duplicates++;
        failures.push({ url: result.url, stage: 'duplicate', code: 'DUPLICATE', reason: `near duplicate of ${original.url}` });
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
      engineScore: Math.round(result.score * 10_000) / 10_000,
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
    engines: engineReport(perQuery.flatMap((q) => q.outcomes)),
    queries,
    found: candidates.length,
    pagesRead: sources.filter((s) => s.read).length,
    pagesFailed,
    duplicates,
  };
}
