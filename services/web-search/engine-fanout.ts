/**
 * Queries engines in parallel under one deadline, fetching further pages
 * from engines that page when more results are wanted. Reports what really
 * happened per engine.
 */
import type { EngineQuery, EngineResult } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import { AppError, toAppError } from '../../core/errors.js';

export interface EngineOutcome {
  engine: string;
  weight: number;
  category: string;
  results: EngineResult[];
  /** Pages fetched successfully. */
  pages: number;
  error?: { code: string; message: string };
}

export interface FanoutOptions {
  engines: string[];
  query: Omit<EngineQuery, 'page'>;
  firstPage: number;
  /** Stop paging once this many results (before merging) are in hand per engine. */
  wantedPerEngine: number;
  /** Absolute time (performance.now()) by which every engine must have answered. */
  deadline: number;
  signal: AbortSignal;
  onEngineDone?(engine: string, done: number, total: number): void;
}

const MAX_EXTRA_PAGES = 4;

export async function fanOut(engines: EngineService, options: FanoutOptions): Promise<EngineOutcome[]> {
  let done = 0;
  const run = async (engine: string): Promise<EngineOutcome> => {
    const { manifest } = engines.get(engine);
    const outcome: EngineOutcome = { engine, weight: engines.weight(engine), category: manifest.categories[0] ?? 'general', results: [], pages: 0 };
    const maxPage = manifest.supports.paging ? (manifest.supports.maxPage || Number.MAX_SAFE_INTEGER) : options.firstPage;
    const lastPage = Math.min(maxPage, options.firstPage + MAX_EXTRA_PAGES);
    const seen = new Set<string>();
    try {
      if (options.firstPage > 1 && !manifest.supports.paging) {
        throw new AppError('INVALID_INPUT', `engine "${engine}" has no further pages`);
      }
      for (let page = options.firstPage; page <= lastPage; page++) {
        const remaining = options.deadline - performance.now();
        if (remaining <= 0) {
          if (page === options.firstPage) throw new AppError('TIMEOUT', 'timeout: no answer within the request timeout');
          break;
        }
        let results: EngineResult[];
        try {
          results = await engines.search(engine, { ...options.query, page }, { signal: options.signal, timeoutMs: engineTimeout(engines, engine, remaining) });
        } catch (error) {
          // A later page failing keeps what earlier pages gave.
          if (page === options.firstPage) throw error;
          break;
        }
        outcome.pages++;
        const fresh = results.filter((r) => !seen.has(r.url));
        for (const r of fresh) seen.add(r.url);
        outcome.results.push(...fresh);
        if (fresh.length === 0 || outcome.results.length >= options.wantedPerEngine) break;
      }
    } catch (error) {
      const appError = toAppError(error);
      const message = appError.code === 'TIMEOUT' ? `timeout: ${appError.message}` : appError.message;
      outcome.error = { code: appError.code, message };
    } finally {
      done++;
      options.onEngineDone?.(engine, done, options.engines.length);
    }
    return outcome;
  };
  return Promise.all(options.engines.map(run));
}

function engineTimeout(engines: EngineService, engine: string, remainingMs: number): number {
  const own = engines.timeoutMs(engine);
  return Math.max(1, Math.min(own, Math.floor(remainingMs)));
}
