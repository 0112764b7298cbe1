/**
 * The one search service as this area calls it. Today that is
 * services/web-search `runSearch`; when the search pipeline becomes one
 * search service, this module is the only line that changes.
 */
import type { CallContext } from '../../core/capability.js';
import type { PluginServices } from '../../app/plugin-services.js';
import type { SearchAnswer, SearchInput } from '../../services/web-search/schemas.js';
import { runSearch } from '../../services/web-search/search-runner.js';

export type SearchFn = (input: SearchInput, ctx: CallContext) => Promise<SearchAnswer>;

export function searchService(services: PluginServices): SearchFn {
  const deps = {
    engines: services.engines,
    scraper: services.scraper,
    cache: services.stores.cache,
    defaultEngines: services.config.search.defaultEngines,
    onCacheLookup: (hit: boolean) => services.metrics.cacheLookup('searxng', hit),
  };
  return (input, ctx) => runSearch(deps, input, ctx);
}
