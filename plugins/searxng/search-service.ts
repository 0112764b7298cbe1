/**
 * The one search service as this area calls it: the web search service's
 * Search API search (engines, merge, relevance, cache, engine health), which
 * SearXNG's requests are mapped onto (request.ts) and whose answers are
 * mapped back (answer.ts).
 */
import type { SearxngServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import type { SearchAnswer, SearchInput } from '../../services/web-search/schemas.js';

export type SearchFn = (input: SearchInput, ctx: CallContext) => Promise<SearchAnswer>;

export function searchService(services: SearxngServices): SearchFn {
  return (input, ctx) => services.webSearch.search(input, ctx);
}
