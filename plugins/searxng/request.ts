/**
 * A SearXNG request as a Quarry search: snippets only (no page reading, as
 * SearXNG), the result page asked for, the engines' time bounded as SearXNG
 * bounds it (tools built for SearXNG wait a few seconds), and every known
 * engine's score breakdown kept so each result can list its positions.
 */
import { AppError } from '../../core/errors.js';
import { languageSchema, searchInputSchema, type SearchInput } from '../../services/web-search/schemas.js';
import { quarryCategories } from './categories.js';
import type { SearxngSearchInput } from './schemas.js';

/** Seconds the engines get when the request sets no timeout_limit (SearXNG's default request timeout is 3 s). */
export const DEFAULT_TIMEOUT_SECONDS = 4;
/** Results per page, about what SearXNG answers with. */
export const RESULTS_PER_PAGE = 20;

const SAFE_SEARCH = ['off', 'moderate', 'strict'] as const;

export interface EngineNames {
  has(id: string): boolean;
}

export interface SearchPlan {
  input: SearchInput;
  /** Engine names asked for that Quarry does not have. */
  unknownEngines: string[];
}

export function planSearch(request: SearxngSearchInput, engines: EngineNames): SearchPlan {
  // Engine names as SearXNG writes them ("bing news") are Quarry's ids with underscores.
  const named = (request.engines ?? []).map((name) => name.trim().toLowerCase().replace(/\s+/g, '_')).filter((name) => name !== '');
  const known = [...new Set(named.filter((name) => engines.has(name)))];
  const unknownEngines = [...new Set(named.filter((name) => !engines.has(name)))];
  const categories = quarryCategories(request.categories ?? []);
  const language = languageOf(request.language);
  const input = searchInputSchema.parse({
    query: request.q,
    ...(known.length > 0 ? { engines: known } : categories.length > 0 ? { categories } : {}),
    max_results: RESULTS_PER_PAGE,
    scrape_content: false,
    ...(language ? { language } : {}),
    ...(request.safesearch ? { safe_search: SAFE_SEARCH[Number(request.safesearch)] } : {}),
    ...(request.time_range ? { time_range: request.time_range } : {}),
    page: request.pageno,
    timeout: request.timeout_limit ?? DEFAULT_TIMEOUT_SECONDS,
    include_images: false,
    include_links: false,
    explain: true,
  });
  return { input, unknownEngines };
}

/** SearXNG's language values as Quarry's: "auto" and "" mean the default, a region tag keeps its language. */
function languageOf(value: string | undefined): string | undefined {
  const tag = value?.trim() ?? '';
  if (tag === '' || tag === 'auto') return undefined;
  if (languageSchema.safeParse(tag).success) return tag;
  const primary = tag.split('-')[0]!.toLowerCase();
  if (languageSchema.safeParse(primary).success) return primary;
  throw new AppError('INVALID_INPUT', `invalid input: language: "${tag}" is not a language code such as en, de-DE or all`, {
    details: { issues: [{ field: 'language', message: 'must be a language code such as en, de-DE or all' }] },
  });
}
