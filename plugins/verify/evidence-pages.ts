/**
 * Where verify gets its pages: the search service (services/web-search)
 * searches every query, interleaves the results rank by rank, drops near
 * duplicates and reads the best pages once. A second round passes the first
 * round's `seen`, so it reads only new pages. The only place verify touches
 * search and scraping.
 */
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { EnginePlan } from '../../services/web-search/engine-plans.js';
import { newSeenSources, type SeenSources } from '../../services/web-search/gather.js';
import type { WebSearch } from '../../services/web-search/web-search.js';

export interface GatherRequest {
  queries: string[];
  engines: string[] | undefined;
  resultsPerQuery: number;
  maxPages: number;
  /** What earlier rounds read (their URLs are skipped, near duplicates of their texts dropped). */
  seen?: SeenSources;
  /** Absolute performance.now() by which reading must be done. */
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
  /** Everything this round (and the rounds before it) gathered. */
  seen: SeenSources;
}

/** Where the pages come from: the search service's plans and gathering. */
export type PageSource = Pick<WebSearch, 'plan' | 'gather'>;

/** The engines get this share of the time left; reading gets the rest. */
const SEARCH_SHARE = 0.4;

function plansFor(source: PageSource, queries: string[], engines: string[] | undefined): EnginePlan[] {
  return queries.flatMap((query) =>
    engines ? engines.map((engine) => ({ engine, query })) : source.plan('default', query),
  );
}

export async function gatherPages(
  source: PageSource,
  request: GatherRequest,
  ctx: CallContext,
  onStep: (step: 'search' | 'read', detail: string) => void,
): Promise<GatherOutcome> {
  const seen = request.seen ?? newSeenSources();
  const gathering = await source
    .gather({
      plans: plansFor(
        source,
        request.queries.map((q) => q.slice(0, 2000)),
        request.engines,
      ),
      resultsPerEngine: request.resultsPerQuery,
      readLimit: request.maxPages,
      language: 'en',
      safeSearch: 1, // moderate, as a search with no safe_search field
      extract: { markdown: false, includeImages: false, includeLinks: false },
      deadline: request.deadline,
      engineShare: SEARCH_SHARE,
      signal: ctx.signal,
      seen,
      progress: (message) => {
        if (message.startsWith('reading '))
          onStep('search', `${request.queries.length} searches, ${message.slice('reading '.length)} chosen`);
      },
    })
    .catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'CANCELLED') throw error;
      ctx.logger.warn({ err: error }, 'verify: gathering pages failed');
      return null;
    });
  if (!gathering) return { pages: [], failed: 0, enginesFailed: [], seen };
  const pages = gathering.sources.filter((s) => s.read).map((s) => ({ url: s.url, title: s.title, text: s.text }));
  onStep('read', `${pages.length} pages read${gathering.pagesFailed ? `, ${gathering.pagesFailed} failed` : ''}`);
  return { pages, failed: gathering.pagesFailed, enginesFailed: gathering.engines.failed, seen };
}
