/**
 * Finding pages for one or more queries, without reading them: every
 * distinct query fans out to its engines in parallel (engine-fanout.ts),
 * each query's lists are merged by normalised URL and scored (merge.ts), the
 * queries' lists are interleaved rank by rank (so every query gets its best
 * results in front), then domain filters apply and URLs already seen are
 * skipped. One engine failing is reported, never thrown.
 */
import type { EngineQuery, SafeSearch, TimeRange } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import { passesDomains, type DomainFilter } from './domain-filter.js';
import { fanOut, succeededLists, type EngineOutcome } from './engine-fanout.js';
import type { EnginePlan } from './engine-plans.js';
import { mergeKeyedResults, type EngineResultList, type KeyedResult, type MergedResult } from './merge.js';

export interface FindOptions {
  plans: EnginePlan[];
  /** Results wanted per engine and query (engines that page are asked for more pages). */
  resultsPerEngine: number;
  /** The first result page asked of every engine; default 1. */
  firstPage?: number;
  language: string;
  safeSearch: SafeSearch;
  timeRange?: TimeRange;
  region?: string;
  domains?: DomainFilter;
  /** Normalised URLs (normalizeUrl) to leave out: what earlier rounds found. */
  skip?: ReadonlySet<string>;
  /**
   * Image search: results merged by the image's own URL (the page it is on kept as sourceUrl); results without one are
   * left out.
   */
  byImage?: boolean;
  /** Absolute performance.now() by which every engine must have answered. */
  deadline: number;
  signal: AbortSignal;
  onEngineDone?(engine: string, query: string, done: number, total: number): void;
}

export interface EngineReport {
  used: string[];
  succeeded: string[];
  failed: string[];
  /** An engine counts as failed only when it failed for every query it was asked. */
  errors: Record<string, { code: string; message: string }>;
}

export interface FoundPage {
  result: MergedResult;
  /** The queries whose results held it. */
  queries: string[];
}

export interface FoundPages {
  /** Best first, interleaved across queries, filtered. */
  pages: FoundPage[];
  queries: string[];
  engines: EngineReport;
  /** Every engine answer, per query, as it came. */
  outcomes: EngineOutcome[];
}

export async function findPages(engines: EngineService, options: FindOptions): Promise<FoundPages> {
  const byQuery = new Map<string, string[]>();
  for (const plan of options.plans) {
    const list = byQuery.get(plan.query) ?? [];
    if (!list.includes(plan.engine)) list.push(plan.engine);
    byQuery.set(plan.query, list);
  }
  const queries = [...byQuery.keys()];
  const base: Omit<EngineQuery, 'page' | 'query'> = {
    language: options.language,
    safeSearch: options.safeSearch,
    ...(options.timeRange ? { timeRange: options.timeRange } : {}),
    ...(options.region ? { region: options.region } : {}),
  };
  let answered = 0;
  const total = options.plans.length;
  const perQuery = await Promise.all(
    queries.map(async (query) => {
      const outcomes = await fanOut(engines, {
        engines: byQuery.get(query)!,
        query: { ...base, query },
        firstPage: options.firstPage ?? 1,
        wantedPerEngine: options.resultsPerEngine,
        deadline: options.deadline,
        signal: options.signal,
        onEngineDone: (engine) => options.onEngineDone?.(engine, query, ++answered, total),
      });
      const lists = succeededLists(outcomes);
      return { query, outcomes, results: mergeKeyedResults(options.byImage ? lists.map(keyedByImage) : lists) };
    }),
  );
  if (options.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');

  // Each page's key is the one the merge grouped it under: not worked out again.
  const pages = interleave(perQuery)
    .filter(({ key, page }) => passesDomains(page.result.url, options.domains) && !options.skip?.has(key))
    .map(({ page }) => page);
  const outcomes = perQuery.flatMap((q) => q.outcomes);
  return { pages, queries, engines: engineReport(outcomes), outcomes };
}

/** A list keyed by each image's URL, the page it sits on kept as sourceUrl. */
function keyedByImage(list: EngineResultList): EngineResultList {
  const results = list.results
    .filter((r) => r.imageUrl ?? r.url)
    .map((r) => ({ ...r, url: r.imageUrl ?? r.url, sourceUrl: r.sourceUrl ?? r.url }));
  // The page URLs' keys no longer apply: merge keys the image URLs itself.
  return { engine: list.engine, weight: list.weight, results };
}

/** Rank 1 of every list, then rank 2 of every list, …; the first occurrence of a URL (by its merge key) wins. */
function interleave(lists: Array<{ query: string; results: KeyedResult[] }>): Array<{ key: string; page: FoundPage }> {
  if (lists.length === 1)
    return lists[0]!.results.map(({ key, result }) => ({ key, page: { result, queries: [lists[0]!.query] } }));
  const byKey = new Map<string, FoundPage>();
  const longest = Math.max(0, ...lists.map((l) => l.results.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const { query, results } of lists) {
      const keyed = results[rank];
      if (!keyed) continue;
      const { key, result } = keyed;
      const found = byKey.get(key);
      if (found) {
        if (!found.queries.includes(query)) found.queries.push(query);
        for (const engine of result.engines)
          if (!found.result.engines.includes(engine)) found.result.engines.push(engine);
      } else {
        byKey.set(key, { result, queries: [query] });
      }
    }
  }
  return [...byKey].map(([key, page]) => ({ key, page }));
}

function engineReport(outcomes: EngineOutcome[]): EngineReport {
  const used = [...new Set(outcomes.map((o) => o.engine))];
  const succeeded = used.filter((engine) => outcomes.some((o) => o.engine === engine && !o.error));
  const errors: EngineReport['errors'] = {};
  for (const outcome of outcomes)
    if (outcome.error && !succeeded.includes(outcome.engine)) errors[outcome.engine] = outcome.error;
  return { used, succeeded, failed: Object.keys(errors), errors };
}
