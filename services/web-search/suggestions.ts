/**
 * Query suggestions for a partly typed query from the engines that offer
 * autocomplete, merged by rank across engines: one engine failing is
 * reported, never thrown. Shared by the Search API's autocomplete and
 * SearXNG's /autocompleter.
 */
import { AppError, toAppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';
import { assertKnownEngines } from './search-runner.js';

/** Engines asked when a request names none (those of them that are loaded). */
export const DEFAULT_SUGGESTION_ENGINES = ['duckduckgo', 'wikipedia'];
/** How long one engine's suggestions may take. */
const SUGGESTION_TIMEOUT_MS = 3000;

export interface SuggestRequest {
  query: string;
  /** Engine ids; default DEFAULT_SUGGESTION_ENGINES. Each must offer autocomplete (a 400 names those that do not). */
  engines?: string[];
  language: string;
  max: number;
  signal: AbortSignal;
}

export interface Suggestions {
  engines: string[];
  suggestions: string[];
  byEngine: Record<string, string[]>;
  errors: Record<string, { code: string; message: string }>;
}

export async function suggestQueries(engines: EngineService, request: SuggestRequest): Promise<Suggestions> {
  const chosen = request.engines ?? DEFAULT_SUGGESTION_ENGINES.filter((id) => engines.has(id));
  assertKnownEngines(engines, chosen);
  const without = chosen.filter((id) => !engines.get(id).definition.autocomplete);
  if (without.length > 0) {
    const offering = engines.ids().filter((id) => engines.get(id).definition.autocomplete);
    throw new AppError(
      'INVALID_INPUT',
      `engines: ${without.join(', ')} offer no autocomplete; engines that do: ${offering.join(', ')}`,
    );
  }
  const byEngine: Record<string, string[]> = {};
  const errors: Record<string, { code: string; message: string }> = {};
  await Promise.all(
    chosen.map(async (id) => {
      try {
        byEngine[id] = await engines.autocomplete(id, request.query, request.language, {
          signal: request.signal,
          timeoutMs: SUGGESTION_TIMEOUT_MS,
        });
      } catch (error) {
        const appError = toAppError(error);
        errors[id] = { code: appError.code, message: appError.message };
      }
    }),
  );
  const lists = chosen.filter((id) => byEngine[id]).map((id) => byEngine[id]!);
  return { engines: chosen, suggestions: mergeSuggestions(lists, request.max), byEngine, errors };
}

/** Interleaves the engines' lists by rank, dropping case-insensitive duplicates. */
export function mergeSuggestions(lists: string[][], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest && out.length < max; rank++) {
    for (const list of lists) {
      const suggestion = list[rank]?.trim();
      if (!suggestion || seen.has(suggestion.toLowerCase())) continue;
      seen.add(suggestion.toLowerCase());
      out.push(suggestion);
      if (out.length >= max) break;
    }
  }
  return out;
}
