/**
 * A SearXNG request as one metasearch (WebSearch.meta): each engine is asked
 * for its result page `pageno` only, as SearXNG asks, and every merged result
 * is answered — no relevance filter, which SearXNG does not have and its
 * clients could not turn off. The engines' time is bounded as SearXNG bounds
 * it (tools built for SearXNG wait a few seconds).
 */
import type { EngineCategory, SafeSearch, TimeRange } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import { languageSchema } from '../../services/web-search/schemas.js';
import { quarryCategories } from './categories.js';
import type { SearxngSearchInput } from './schemas.js';

/** Seconds the engines get when the request sets no timeout_limit (SearXNG's default request timeout is 3 s). */
export const DEFAULT_TIMEOUT_SECONDS = 4;
/** The language engines are asked in when the request names none ("auto", as SearXNG's default). */
const DEFAULT_LANGUAGE = 'en';
/** Without safesearch: moderate, the Search API's default. */
const DEFAULT_SAFE_SEARCH: SafeSearch = 1;

export interface EngineNames {
  has(id: string): boolean;
}

export interface SearxngSearchPlan {
  query: string;
  /** Quarry engine ids asked for by name; absent when none of the names is known. */
  engines?: string[];
  /** Quarry categories, used when no known engine is named. */
  categories?: EngineCategory[];
  language: string;
  page: number;
  safeSearch: SafeSearch;
  timeRange?: TimeRange;
  timeoutSeconds: number;
  /** Engine names asked for that Quarry does not have. */
  unknownEngines: string[];
}

export function planSearch(request: SearxngSearchInput, engines: EngineNames): SearxngSearchPlan {
  // Engine names as SearXNG writes them ("bing news") are Quarry's ids with underscores.
  const named = (request.engines ?? [])
    .map((name) => name.trim().toLowerCase().replace(/\s+/g, '_'))
    .filter((name) => name !== '');
  const known = [...new Set(named.filter((name) => engines.has(name)))];
  const unknownEngines = [...new Set(named.filter((name) => !engines.has(name)))];
  const categories = quarryCategories(request.categories ?? []);
  return {
    query: request.q,
    ...(known.length > 0 ? { engines: known } : categories.length > 0 ? { categories } : {}),
    language: languageOf(request.language) ?? DEFAULT_LANGUAGE,
    page: request.pageno,
    safeSearch: request.safesearch ? (Number(request.safesearch) as SafeSearch) : DEFAULT_SAFE_SEARCH,
    ...(request.time_range ? { timeRange: request.time_range } : {}),
    timeoutSeconds: request.timeout_limit ?? DEFAULT_TIMEOUT_SECONDS,
    unknownEngines,
  };
}

/** SearXNG's language values as Quarry's: "auto" and "" mean the default, a region tag keeps its language. */
export function languageOf(value: string | undefined): string | undefined {
  const tag = value?.trim() ?? '';
  if (tag === '' || tag === 'auto') return undefined;
  if (languageSchema.safeParse(tag).success) return tag;
  const primary = tag.split('-')[0]!.toLowerCase();
  if (languageSchema.safeParse(primary).success) return primary;
  throw new AppError(
    'INVALID_INPUT',
    `invalid input: language: "${tag}" is not a language code such as en, de-DE or all`,
    {
      details: { issues: [{ field: 'language', message: 'must be a language code such as en, de-DE or all' }] },
    },
  );
}
