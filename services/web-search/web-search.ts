/**
 * The search service: the one way every area finds pages for queries. Built
 * once by the composition root with the engines, the scraper, the cache (its
 * lookups counted in the metrics) and the link policy, and handed to every
 * plugin ready-made (PluginServices.webSearch).
 *
 *   search   a Search API search: engines, fan-out, merge, relevance, scrape, cache (search-runner.ts)
 *   plan     the engines (and queries) of a route: topics, categories (engine-plans.ts)
 *   find     pages for several queries, merged, interleaved, filtered, not read (find-pages.ts)
 *   gather   found pages read by the scraper, near duplicates dropped (gather.ts)
 *   meta     one metasearch with per-engine positions and the engines that did not answer
 */
import type { CallContext } from '../../core/capability.js';
import type { EngineCategory, SafeSearch, TimeRange } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import type { LinkPolicy } from '../markdown/escape.js';
import { outboundLinkPolicy } from '../markdown/link-policy.js';
import { planEngines, type EnginePlan, type EngineRoute } from './engine-plans.js';
import { findPages, type FindOptions, type FoundPages } from './find-pages.js';
import { gatherSources, type GatherOptions, type Gathering } from './gather.js';
import type { MetaSearchAnswer } from './meta-answer.js';
import type { SearchAnswer, SearchInput } from './schemas.js';
import { assertKnownEngines, chooseEngines, runSearch, type SearchDeps } from './search-runner.js';

export interface MetaSearchRequest {
  query: string;
  /** Engine ids; when absent, the engines of `categories`, else the defaults. */
  engines?: string[];
  categories?: EngineCategory[];
  language: string;
  /** 1-based result page asked of every engine. */
  page: number;
  timeRange?: TimeRange;
  safeSearch: SafeSearch;
  /** Absolute performance.now() by which every engine must have answered. */
  deadline: number;
  signal: AbortSignal;
}

export type { MetaSearchAnswer };

/** How long a metasearch answer is reused: the Search API's default cache_ttl (an hour). */
const META_CACHE_TTL_MS = 3_600_000;

export class WebSearch {
  get engines(): EngineService {
    return this.deps.engines;
  }

  get defaultEngines(): string[] {
    return this.deps.defaultEngines;
  }

  /** Which result URLs markdown answers link. */
  readonly linkPolicy: LinkPolicy;

  constructor(private readonly deps: SearchDeps) {
    this.linkPolicy = deps.linkPolicy ?? outboundLinkPolicy();
  }

  search(input: SearchInput, ctx: CallContext): Promise<SearchAnswer> {
    return runSearch(this.deps, input, ctx);
  }

  /** Unknown ids are a 400 listing the valid ones. */
  assertKnownEngines(ids: string[]): void {
    assertKnownEngines(this.deps.engines, ids);
  }

  plan(route: EngineRoute, query: string): EnginePlan[] {
    return planEngines(this.deps.engines, route, query, this.deps.defaultEngines);
  }

  find(options: FindOptions): Promise<FoundPages> {
    return findPages(this.deps.engines, options);
  }

  gather(options: GatherOptions): Promise<Gathering> {
    return gatherSources(this.deps.engines, this.deps.scraper, options);
  }

  async meta(request: MetaSearchRequest): Promise<MetaSearchAnswer> {
    const engines = chooseEngines(this.deps, {
      ...(request.engines ? { engines: request.engines } : {}),
      ...(request.categories ? { categories: request.categories } : {}),
    });
    // Same engines, query, page, language, safety and time range: the same answer, kept as the Search API keeps its.
    const { query, page, language, safeSearch, timeRange } = request;
    const key = JSON.stringify([engines, query, page, language, safeSearch, timeRange ?? null]);
    const cached = await this.deps.metaCache?.get(key);
    if (cached) return cached;
    const found = await this.find({
      plans: engines.map((engine) => ({ engine, query: request.query })),
      resultsPerEngine: 1,
      firstPage: request.page,
      language: request.language,
      safeSearch: request.safeSearch,
      ...(request.timeRange ? { timeRange: request.timeRange } : {}),
      deadline: request.deadline,
      signal: request.signal,
    });
    const answer = {
      engines,
      results: found.pages.map((p) => p.result),
      unresponsive: Object.entries(found.engines.errors).map(([engine, error]) => ({ engine, ...error })),
    };
    // Kept only when some engine answered, so an outage is asked again next time.
    if (answer.unresponsive.length < engines.length) await this.deps.metaCache?.set(key, answer, META_CACHE_TTL_MS);
    return answer;
  }
}
