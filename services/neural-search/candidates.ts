/**
 * Candidate pages for neural and similar search: engine results found and
 * read by the search service (services/web-search: fan-out, merge by URL,
 * domain filters, reading, near duplicates dropped) and hits from the local
 * page index (grouped by page). Reports what failed.
 */
import type { CallContext } from '../../core/capability.js';
import type { DomainFilter } from '../web-search/domain-filter.js';
import type { EnginePlan } from '../web-search/engine-plans.js';
import { normalizeUrl } from '../web-search/url-normalize.js';
import type { NeuralDeps } from './deps.js';
import type { PageIndexQuery } from '../vectors/types.js';

export interface Candidate {
  url: string;
  title: string;
  snippet: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
  source: 'engines' | 'local_index';
}

export interface EngineGathering {
  candidates: Candidate[];
  enginesUsed: string[];
  enginesFailed: string[];
  engineErrors: Record<string, { code: string; message: string }>;
  pagesFailed: Array<{ url: string; reason: string }>;
}

/** The engines get this share of the time; reading the pages the rest. */
const ENGINE_SHARE = 0.55;
const RESULTS_PER_ENGINE = 10;

export async function gatherFromEngines(
  services: NeuralDeps,
  plans: EnginePlan[],
  options: {
    language: string;
    deadline: number;
    scrapeLimit: number;
    domains: DomainFilter;
    ctx: CallContext;
    progressBase: number;
    progressTotal: number;
  },
): Promise<EngineGathering> {
  const { ctx } = options;
  const gathering = await services.webSearch.gather({
    plans,
    resultsPerEngine: RESULTS_PER_ENGINE,
    readLimit: options.scrapeLimit,
    language: options.language,
    safeSearch: 1,
    domains: options.domains,
    extract: { markdown: false, includeImages: false, includeLinks: false },
    deadline: options.deadline,
    engineShare: ENGINE_SHARE,
    signal: ctx.signal,
    progress: (message) => {
      if (message.startsWith('reading '))
        ctx.progress({ progress: options.progressBase, total: options.progressTotal, message });
    },
  });
  return {
    // A page that could not be read still competes on its title and snippet.
    candidates: gathering.sources.map((s) => ({
      url: s.url,
      title: s.title,
      snippet: s.snippet,
      text: s.text,
      publishedDate: s.publishedDate,
      author: s.author,
      source: 'engines',
    })),
    enginesUsed: gathering.engines.used,
    enginesFailed: gathering.engines.failed,
    engineErrors: gathering.engines.errors,
    pagesFailed: gathering.failures.filter((f) => f.stage === 'page').map((f) => ({ url: f.url, reason: f.reason })),
  };
}

/** Pages from the local index, best chunk first, their text joined from the hits. Empty when the index is off. */
export async function gatherFromIndex(
  services: NeuralDeps,
  query: PageIndexQuery,
  pages: number,
): Promise<Candidate[]> {
  const index = await services.semantic.pageIndex();
  if (!index) return [];
  const hits = await index.search({ ...query, limit: pages * 4 });
  const byUrl = new Map<string, Candidate>();
  for (const hit of hits) {
    const existing = byUrl.get(hit.url);
    if (existing) {
      existing.text += `\n\n${hit.text}`;
      continue;
    }
    if (byUrl.size >= pages) continue;
    byUrl.set(hit.url, {
      url: hit.url,
      title: hit.title,
      snippet: '',
      text: hit.text,
      publishedDate: hit.publishedDate,
      author: hit.author,
      source: 'local_index',
    });
  }
  return [...byUrl.values()];
}

/** Candidates by normalised URL; the engine copy (fresh text) wins over the index copy. */
export function uniqueCandidates(candidates: Candidate[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const key = normalizeUrl(candidate.url);
    const existing = byKey.get(key);
    if (!existing || (existing.source === 'local_index' && candidate.source === 'engines' && candidate.text))
      byKey.set(key, candidate);
  }
  return [...byKey.values()];
}
