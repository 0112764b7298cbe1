/**
 * Queries engines in parallel under one deadline, fetching further pages
 * from engines that page when more results are wanted. Reports what really
 * happened per engine.
 *
 * How many are wanted: `wantedPerEngine` from each engine, or, for a search
 * asking `wantedInAll` results from several engines, each engine's share of
 * them first (wanted ÷ engines, paged for at once), then — only if the
 * engines together still hold fewer distinct results — one more page from
 * each engine that can give one, round after round. An engine one result
 * short of the whole count no longer pages while the others already hold
 * plenty: that second round trip was most of a search's latency over its
 * slowest engine (bench:search) and an engine request more, each time.
 */
import type { EngineQuery, EngineResult } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import { AppError, toAppError } from '../../core/errors.js';
import { normalizeUrl } from './url-normalize.js';
import type { EngineResultList } from './merge.js';

export interface EngineOutcome {
  engine: string;
  weight: number;
  category: string;
  results: EngineResult[];
  /**
   * Each result's URL as a duplicate key (url-normalize.ts), in the same order: worked out as its page arrives, while
   * slower engines are still out, not after the last one.
   */
  keys: string[];
  /** Pages fetched successfully. */
  pages: number;
  error?: { code: string; message: string };
}

/**
 * How many results are wanted: from each engine, or from all together (distinct URLs: each engine's share, topped up
 * when short).
 */
export type Wanted =
  | { wantedPerEngine: number; wantedInAll?: never }
  | { wantedInAll: number; wantedPerEngine?: never };

export type FanoutOptions = Wanted & {
  engines: string[];
  query: Omit<EngineQuery, 'page'>;
  firstPage: number;
  /** Absolute time (performance.now()) by which every engine must have answered. */
  deadline: number;
  signal: AbortSignal;
  onEngineDone?(engine: string, done: number, total: number): void;
};

const MAX_EXTRA_PAGES = 4;

/** Where an engine's paging stands: the next page to ask, and whether it can give more. */
interface Paging {
  outcome: EngineOutcome;
  next: number;
  last: number;
  seen: Set<string>;
  more: boolean;
}

export async function fanOut(engines: EngineService, options: FanoutOptions): Promise<EngineOutcome[]> {
  const share =
    options.wantedInAll === undefined
      ? options.wantedPerEngine
      : Math.ceil(options.wantedInAll / Math.max(1, options.engines.length));
  let done = 0;
  const pagings = await Promise.all(
    options.engines.map(async (engine) => {
      const paging = startPaging(engines, engine, options);
      try {
        while (paging.more && paging.outcome.results.length < share) await nextPage(engines, paging, options);
      } catch (error) {
        failed(paging, error);
      } finally {
        done++;
        options.onEngineDone?.(engine, done, options.engines.length);
      }
      return paging;
    }),
  );
  if (options.wantedInAll !== undefined) await topUp(engines, pagings, options.wantedInAll, options);
  return pagings.map((p) => p.outcome);
}

/** Further pages, one per engine per round, while the engines together hold fewer than wanted distinct results. */
async function topUp(engines: EngineService, pagings: Paging[], wanted: number, options: FanoutOptions): Promise<void> {
  for (;;) {
    const open = pagings.filter((p) => p.more && !p.outcome.error);
    if (open.length === 0 || distinctResults(pagings) >= wanted || options.signal.aborted) return;
    await Promise.all(
      open.map((paging) => nextPage(engines, paging, options).catch((error: unknown) => failed(paging, error))),
    );
  }
}

function distinctResults(pagings: Paging[]): number {
  const keys = new Set<string>();
  for (const { outcome } of pagings) for (const key of outcome.keys) keys.add(key);
  return keys.size;
}

function startPaging(engines: EngineService, engine: string, options: FanoutOptions): Paging {
  const { manifest } = engines.get(engine);
  const outcome: EngineOutcome = {
    engine,
    weight: engines.weight(engine),
    category: manifest.categories[0] ?? 'general',
    results: [],
    keys: [],
    pages: 0,
  };
  const maxPage = manifest.supports.paging ? manifest.supports.maxPage || Number.MAX_SAFE_INTEGER : options.firstPage;
  const paging: Paging = {
    outcome,
    next: options.firstPage,
    last: Math.min(maxPage, options.firstPage + MAX_EXTRA_PAGES),
    seen: new Set(),
    more: true,
  };
  if (options.firstPage > 1 && !manifest.supports.paging)
    failed(paging, new AppError('INVALID_INPUT', `engine "${engine}" has no further pages`));
  return paging;
}

/**
 * Asks the engine for its next page. A first page that fails or comes too late fails the engine; a later one ends its
 * paging and keeps what earlier pages gave.
 */
async function nextPage(engines: EngineService, paging: Paging, options: FanoutOptions): Promise<void> {
  const first = paging.next === options.firstPage;
  const remaining = options.deadline - performance.now();
  if (remaining <= 0) {
    paging.more = false;
    if (first) throw new AppError('TIMEOUT', 'timeout: no answer within the request timeout');
    return;
  }
  const { outcome } = paging;
  let results: EngineResult[];
  try {
    results = await engines.search(
      outcome.engine,
      { ...options.query, page: paging.next },
      { signal: options.signal, timeoutMs: engineTimeout(engines, outcome.engine, remaining) },
    );
  } catch (error) {
    paging.more = false;
    if (first) throw error;
    return;
  }
  paging.next++;
  outcome.pages++;
  const fresh = results.filter((r) => !paging.seen.has(r.url));
  for (const r of fresh) {
    paging.seen.add(r.url);
    outcome.results.push(r);
    outcome.keys.push(normalizeUrl(r.url));
  }
  if (fresh.length === 0 || paging.next > paging.last) paging.more = false;
}

/** The lists of the engines that answered, as merge.ts takes them, their URL keys included. */
export function succeededLists(outcomes: EngineOutcome[]): EngineResultList[] {
  return outcomes
    .filter((o) => !o.error)
    .map((o) => ({ engine: o.engine, weight: o.weight, results: o.results, keys: o.keys }));
}

function failed(paging: Paging, error: unknown): void {
  const appError = toAppError(error);
  const message = appError.code === 'TIMEOUT' ? `timeout: ${appError.message}` : appError.message;
  paging.outcome.error = { code: appError.code, message };
  paging.more = false;
}

function engineTimeout(engines: EngineService, engine: string, remainingMs: number): number {
  const own = engines.timeoutMs(engine);
  return Math.max(1, Math.min(own, Math.floor(remainingMs)));
}
