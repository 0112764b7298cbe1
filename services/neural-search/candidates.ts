/**
 * Candidate pages for neural and similar search: engine results (several
 * queries fanned out, merged by URL, then scraped for their text) and hits
 * from the local page index (grouped by page). Reports what failed.
 */
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { NeuralDeps } from './deps.js';
import type { PageIndexQuery } from '../vectors/types.js';
import { fanOut } from '../web-search/engine-fanout.js';
import { mergeEngineResults } from '../web-search/merge.js';
import { normalizeUrl } from '../web-search/url-normalize.js';
import type { EnginePlan } from './categories.js';

export interface Candidate {
  url: string;
  title: string;
  snippet: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
  source: 'engines' | 'local_index';
}

export interface DomainFilter {
  include?: string[];
  exclude?: string[];
}

export interface EngineGathering {
  candidates: Candidate[];
  enginesUsed: string[];
  enginesFailed: string[];
  engineErrors: Record<string, { code: string; message: string }>;
  pagesFailed: Array<{ url: string; reason: string }>;
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export function passesDomains(url: string, filter: DomainFilter): boolean {
  const host = hostOf(url);
  if (host === null) return false;
  if (filter.include && !filter.include.some((d) => domainMatches(host, d))) return false;
  if (filter.exclude && filter.exclude.some((d) => domainMatches(host, d))) return false;
  return true;
}

export async function gatherFromEngines(
  services: NeuralDeps,
  plans: EnginePlan[],
  options: { language: string; deadline: number; scrapeLimit: number; domains: DomainFilter; ctx: CallContext; progressBase: number; progressTotal: number },
): Promise<EngineGathering> {
  const { ctx } = options;
  const byQuery = new Map<string, string[]>();
  for (const plan of plans) byQuery.set(plan.query, [...(byQuery.get(plan.query) ?? []), plan.engine]);
  // Engine time ends early enough to leave the rest of the deadline for scraping.
  const engineDeadline = performance.now() + (options.deadline - performance.now()) * 0.55;
  const outcomes = (
    await Promise.all(
      [...byQuery].map(([query, engines]) =>
        fanOut(services.engines, {
          engines,
          query: { query, language: options.language, safeSearch: 1 },
          firstPage: 1,
          wantedPerEngine: 10,
          deadline: engineDeadline,
          signal: ctx.signal,
        }),
      ),
    )
  ).flat();
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');

  const engineErrors: Record<string, { code: string; message: string }> = {};
  for (const outcome of outcomes) if (outcome.error && !outcomes.some((o) => o.engine === outcome.engine && !o.error)) engineErrors[outcome.engine] = outcome.error;
  const merged = mergeEngineResults(outcomes.filter((o) => !o.error).map((o) => ({ engine: o.engine, weight: o.weight, results: o.results })));
  const kept = merged.filter((r) => passesDomains(r.url, options.domains)).slice(0, options.scrapeLimit);

  ctx.progress({ progress: options.progressBase, total: options.progressTotal, message: `reading ${kept.length} pages` });
  const remaining = Math.max(1000, Math.floor(options.deadline - performance.now()));
  const pages = await services.scraper.scrapeMany(
    kept.map((r) => r.url),
    { timeoutMs: remaining, signal: ctx.signal, extract: { markdown: false, includeImages: false, includeLinks: false } },
  );
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');

  const pagesFailed: Array<{ url: string; reason: string }> = [];
  const candidates = kept.map((result, i): Candidate => {
    const page = pages[i]!;
    if (!page.success) pagesFailed.push({ url: result.url, reason: page.failureReason ?? 'extraction failed' });
    return {
      url: result.url,
      title: (page.success && page.title) || result.title,
      snippet: result.snippet,
      // A page that could not be read still competes on its title and snippet.
      text: page.success ? page.text : '',
      publishedDate: (page.success ? page.metadata.publishedDate : null) ?? result.publishedDate ?? null,
      author: (page.success ? page.metadata.author : null) ?? result.author ?? null,
      source: 'engines',
    };
  });
  const used = [...new Set(outcomes.map((o) => o.engine))];
  return {
    candidates,
    enginesUsed: used,
    enginesFailed: Object.keys(engineErrors),
    engineErrors,
    pagesFailed,
  };
}

/** Pages from the local index, best chunk first, their text joined from the hits. Empty when the index is off. */
export async function gatherFromIndex(services: NeuralDeps, query: PageIndexQuery, pages: number): Promise<Candidate[]> {
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
    if (!existing || (existing.source === 'local_index' && candidate.source === 'engines' && candidate.text)) byKey.set(key, candidate);
  }
  return [...byKey.values()];
}
