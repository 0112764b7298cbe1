/**
 * Where verify gets its pages: search the engines for each query, merge the
 * results (round robin across queries, one entry per normalised URL), read
 * the best pages once. The only place verify touches search and scraping,
 * so a shared sources service can take its place without the rest changing.
 */
import type { CallContext } from '../../core/capability.js';
import { toAppError } from '../../core/errors.js';
import type { Scraper } from '../../services/scrape/scraper.js';
import { searchInputSchema } from '../../services/web-search/schemas.js';
import { runSearch, type SearchDeps } from '../../services/web-search/search-runner.js';
import { normalizeUrl } from '../../services/web-search/url-normalize.js';

export interface GatherRequest {
  queries: string[];
  engines: string[] | undefined;
  resultsPerQuery: number;
  maxPages: number;
  /** URLs already read (a second round reads only new pages). */
  exclude?: Set<string>;
  deadline: number;
}

export interface ReadPage {
  url: string;
  title: string;
  text: string;
}

export interface GatherOutcome {
  pages: ReadPage[];
  /** Pages whose reading failed (not counted as checked). */
  failed: number;
  enginesFailed: string[];
  /** Normalised URLs of every page chosen, read or not. */
  chosen: Set<string>;
}

export interface PageSource {
  search: SearchDeps;
  scraper: Scraper;
}

const SEARCH_SHARE = 0.4;

export async function gatherPages(source: PageSource, request: GatherRequest, ctx: CallContext, onStep: (step: 'search' | 'read', detail: string) => void): Promise<GatherOutcome> {
  const started = performance.now();
  const searchBudget = Math.max(1, ((request.deadline - started) * SEARCH_SHARE) / 1000);
  const enginesFailed = new Set<string>();
  const answers = await Promise.all(
    request.queries.map(async (query) => {
      try {
        const answer = await runSearch(
          source.search,
          searchInputSchema.parse({
            query: query.slice(0, 2000),
            ...(request.engines ? { engines: request.engines } : {}),
            max_results: request.resultsPerQuery,
            scrape_content: false,
            // Relevance is judged sentence by sentence later; an engine's terse snippet is no reason to skip a page.
            relevance_filter: false,
            timeout: Math.min(120, searchBudget),
          }),
          { ...ctx, progress: () => undefined },
        );
        for (const engine of answer.search_metadata.engines_failed) enginesFailed.add(engine);
        return answer.results;
      } catch (error) {
        ctx.logger.warn({ err: toAppError(error), query }, 'verify: a search failed');
        return [];
      }
    }),
  );
  const chosen = new Set<string>();
  const picks: Array<{ url: string; title: string }> = [];
  for (let rank = 0; picks.length < request.maxPages && answers.some((list) => rank < list.length); rank++) {
    for (const list of answers) {
      const result = list[rank];
      if (!result || picks.length >= request.maxPages) continue;
      const key = normalizeUrl(result.url);
      if (chosen.has(key) || request.exclude?.has(key)) continue;
      chosen.add(key);
      picks.push({ url: result.url, title: result.title });
    }
  }
  onStep('search', `${request.queries.length} searches, ${picks.length} pages chosen`);
  const scraped = await source.scraper.scrapeMany(
    picks.map((p) => p.url),
    { timeoutMs: Math.max(1, request.deadline - performance.now()), signal: ctx.signal, extract: { includeImages: false, includeLinks: false, markdown: false } },
  );
  const pages: ReadPage[] = [];
  let failed = 0;
  scraped.forEach((page, i) => {
    if (page.success && page.text.trim()) pages.push({ url: picks[i]!.url, title: page.title || picks[i]!.title, text: page.text });
    else failed++;
  });
  onStep('read', `${pages.length} pages read${failed ? `, ${failed} failed` : ''}`);
  return { pages, failed, enginesFailed: [...enginesFailed], chosen };
}
