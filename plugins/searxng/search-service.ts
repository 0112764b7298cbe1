/**
 * The one search service as this area calls it: one metasearch
 * (WebSearch.meta: each engine's page N, merged by URL with every engine's
 * position, engine health included), which SearXNG's requests are mapped onto
 * (request.ts) and whose answers are mapped back (answer.ts).
 */
import type { SearxngServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import type { MetaSearchAnswer } from '../../services/web-search/web-search.js';
import type { SearxngSearchPlan } from './request.js';

export type SearchFn = (plan: SearxngSearchPlan, ctx: CallContext) => Promise<MetaSearchAnswer>;

export function searchService(services: SearxngServices): SearchFn {
  return (plan, ctx) =>
    services.webSearch.meta({
      query: plan.query,
      ...(plan.engines ? { engines: plan.engines } : {}),
      ...(plan.categories ? { categories: plan.categories } : {}),
      language: plan.language,
      page: plan.page,
      safeSearch: plan.safeSearch,
      ...(plan.timeRange ? { timeRange: plan.timeRange } : {}),
      deadline: performance.now() + plan.timeoutSeconds * 1000,
      signal: ctx.signal,
    });
}
