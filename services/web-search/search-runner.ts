/**
 * One search, end to end: choose engines, fan out under the request's
 * deadline, merge, filter by relevance, scrape, and shape the answer.
 * The request's `timeout` bounds all of it, scraping included.
 */
import { randomBytes } from 'node:crypto';
import type { CallContext } from '../../core/capability.js';
import type { SafeSearch } from '../../core/engine.js';
import type { EngineService } from '../engines/engine-service.js';
import { AppError } from '../../core/errors.js';
import { isDeepFrozen } from '../../core/frozen-json.js';
import type { Scraper, ScrapedPage } from '../scrape/scraper.js';
import type { AnswerCache } from './answer-cache.js';
import type { MetaSearchAnswer } from './meta-answer.js';
import { fanOut, succeededLists } from './engine-fanout.js';
import { mergeEngineResults } from './merge.js';
import { lexicalRelevance } from '../ranking/relevance.js';
import type { LinkPolicy } from '../markdown/escape.js';
import { renderSearchMarkdown } from './render-markdown.js';
import { scrapedContent } from './scraped-content.js';
import type { SearchAnswer, SearchInput, SearchResultItem } from './schemas.js';
import { roundScore as round } from '../../core/rounding.js';

const SAFE_SEARCH: Record<SearchInput['safe_search'], SafeSearch> = { off: 0, moderate: 1, strict: 2 };
/** Time kept back from the engines for scraping when scraping is on. */
const SCRAPE_RESERVE_SHARE = 0.4;

export interface SearchDeps {
  engines: EngineService;
  scraper: Scraper;
  /** Search answers by request (answer-cache.ts: the cache store, its lookups counted). */
  cache: AnswerCache<SearchAnswer>;
  /** Metasearch answers (WebSearch.meta, the SearXNG surface's) by request; none means not cached. */
  metaCache?: AnswerCache<MetaSearchAnswer>;
  defaultEngines: string[];
  /** Which result URLs the markdown answer links (the outbound policy's); default strict. */
  linkPolicy?: LinkPolicy;
}

/** Random bytes drawn in blocks: one system call per 341 ids instead of one per request. */
const ID_BYTES = 12;
let idPool = Buffer.alloc(0);
let idOffset = 0;

export function newRequestId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 341);
    idOffset = 0;
  }
  const id = idPool.toString('hex', idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return `req_${id}`;
}

/** Validates engine ids against the catalogue: unknown ids are a 400 listing the valid ones. */
export function assertKnownEngines(engines: EngineService, ids: string[]): void {
  // Checked on every search (twice for one over HTTP): nothing is built unless one is unknown.
  if (ids.every((id) => engines.has(id))) return;
  const unknown = ids.filter((id) => !engines.has(id));
  throw new AppError(
    'UNKNOWN_ENGINE',
    `unknown engine(s): ${unknown.join(', ')}. Valid engines: ${engines.ids().join(', ')}`,
    {
      details: { unknown, valid: engines.ids() },
    },
  );
}

export function chooseEngines(deps: SearchDeps, input: Pick<SearchInput, 'engines' | 'categories'>): string[] {
  if (input.engines) {
    assertKnownEngines(deps.engines, input.engines);
    // Former engine ids (manifest aliases) are answered under the engine's current id.
    return [...new Set(input.engines.map((id) => deps.engines.canonicalId(id)))];
  }
  if (input.categories) {
    const chosen = deps.engines
      .ids()
      .filter((id) => deps.engines.disabledReason(id) === null)
      .filter((id) => deps.engines.get(id).manifest.categories.some((c) => input.categories!.includes(c)));
    if (chosen.length === 0)
      throw new AppError('INVALID_INPUT', `categories: no enabled engine serves ${input.categories.join(', ')}`);
    return chosen;
  }
  return deps.defaultEngines.filter((id) => deps.engines.has(id));
}

/** What makes two searches the same answer, as text (the cache digests it for its store). */
function cacheKey(input: SearchInput, engines: string[]): string {
  const relevant = {
    q: input.query,
    e: [...engines].sort(),
    c: input.categories ?? null,
    n: input.max_results,
    s: input.scrape_content,
    l: input.language,
    ss: input.safe_search,
    js: input.js_mode,
    rf: input.relevance_filter,
    mr: input.min_relevance_score,
    im: input.include_images,
    ln: input.include_links,
    tr: input.time_range ?? null,
    p: input.page,
    x: input.explain,
  };
  return JSON.stringify(relevant);
}

interface Plan {
  deps: SearchDeps;
  engines: string[];
  key: string;
}

/**
 * The engines and cache key of a frozen input (one validated once and shared by its repeats, core/input-memo.ts),
 * worked out once. Not with categories: their engines follow which engines are enabled now.
 */
const plans = new WeakMap<object, Plan>();

function planOf(deps: SearchDeps, input: SearchInput): Plan {
  const known = plans.get(input);
  if (known?.deps === deps) return known;
  const engines = chooseEngines(deps, input);
  const plan = { deps, engines, key: cacheKey(input, engines) };
  if (!input.categories && isDeepFrozen(input)) plans.set(input, plan);
  return plan;
}

export async function runSearch(deps: SearchDeps, input: SearchInput, ctx: CallContext): Promise<SearchAnswer> {
  const started = performance.now();
  const deadline = started + input.timeout * 1000;
  const { engines, key } = planOf(deps, input);

  if (input.cache_ttl > 0) {
    const cached = await deps.cache.get(key);
    // A copy of its own (the cached answer is frozen and shared), finished in place.
    if (cached) return finish({ ...cached, cached: true, request_id: newRequestId() }, input, started, deps.linkPolicy);
  }

  const engineDeadline = input.scrape_content ? started + input.timeout * 1000 * (1 - SCRAPE_RESERVE_SHARE) : deadline;
  ctx.progress({ progress: 0, total: engines.length, message: `querying ${engines.length} engines` });
  const outcomes = await fanOut(deps.engines, {
    engines,
    query: {
      query: input.query,
      language: input.language,
      safeSearch: SAFE_SEARCH[input.safe_search],
      ...(input.time_range ? { timeRange: input.time_range } : {}),
    },
    firstPage: input.page,
    wantedInAll: input.max_results,
    deadline: engineDeadline,
    signal: ctx.signal,
    onEngineDone: (engine, done, total) =>
      ctx.progress({ progress: done, total, message: `engine ${engine} answered` }),
  });
  if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');

  const succeeded = outcomes.filter((o) => !o.error);
  const failed = outcomes.filter((o) => o.error);
  const merged = mergeEngineResults(succeededLists(outcomes), { explain: input.explain });
  const categoryOf = new Map(outcomes.map((o) => [o.engine, o.category]));

  // Without the filter only the results returned need their relevance (scored below, once).
  let candidates = merged.map((result) => ({
    result,
    relevance: input.relevance_filter ? relevanceOf(input.query, result) : Number.NaN,
  }));
  const before = candidates.length;
  if (input.relevance_filter) candidates = candidates.filter((c) => c.relevance >= input.min_relevance_score);
  const dropped = before - candidates.length;
  if (input.categories && input.categories.length > 1) {
    // Group by category (in the order asked), keeping score order within each group.
    const order = new Map(input.categories.map((c, i) => [c, i]));
    const rank = (c: (typeof candidates)[number]): number =>
      order.get(categoryOf.get(c.result.engines[0] ?? '') as never) ?? 99;
    candidates = candidates
      .map((c, i) => ({ c, i }))
      .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
      .map((x) => x.c);
  }
  const chosen = candidates
    .slice(0, input.max_results)
    .map((c) => (Number.isNaN(c.relevance) ? { ...c, relevance: relevanceOf(input.query, c.result) } : c));

  let pages: ScrapedPage[] = [];
  if (input.scrape_content && chosen.length > 0) {
    ctx.progress({ progress: engines.length, total: engines.length + 1, message: `scraping ${chosen.length} pages` });
    pages = await deps.scraper.scrapeMany(
      chosen.map((c) => c.result.url),
      {
        javascript: input.js_mode,
        timeoutMs: Math.max(1, Math.floor(deadline - performance.now())),
        signal: ctx.signal,
        extract: { includeImages: input.include_images, includeLinks: input.include_links, markdown: true },
      },
    );
    if (ctx.signal.aborted) throw new AppError('CANCELLED', 'the search was cancelled');
  }

  const results: SearchResultItem[] = chosen.map(({ result, relevance }, index) => {
    const item: SearchResultItem = {
      rank: index + 1,
      title: result.title,
      url: result.url,
      snippet: result.snippet,
      engine: result.engines[0] ?? '',
      score: round(result.score),
      engines: result.engines,
      relevance_score: round(relevance),
    };
    const category = categoryOf.get(item.engine);
    if (input.categories && category) item.category = category;
    if (result.publishedDate) item.published_date = result.publishedDate;
    if (result.thumbnail) item.thumbnail = result.thumbnail;
    if (result.explanation) item.explanation = result.explanation;
    const page = pages[index];
    if (page) item.scraped_content = scrapedContent(page, input);
    return item;
  });

  const answer: SearchAnswer = {
    search_metadata: {
      query: input.query,
      language: input.language,
      engines_used: engines,
      engines,
      engines_succeeded: succeeded.map((o) => o.engine),
      engines_failed: failed.map((o) => o.engine),
      engine_errors: Object.fromEntries(failed.map((o) => [o.engine, o.error!])),
      total_results_found: merged.length,
      results_returned: results.length,
      search_time_ms: 0,
      timestamp: new Date().toISOString(),
      relevance_filtered: dropped > 0,
      relevance_dropped: dropped,
      page: input.page,
      ...(input.categories ? { categories: input.categories } : {}),
    },
    results,
    processing_time_ms: 0,
    cached: false,
    total_results: results.length,
    request_id: newRequestId(),
  };
  // Measured once, before caching: the fresh answer and its later cache hits report the same search time.
  answer.search_metadata.search_time_ms = Math.round(performance.now() - started);
  // Only answers where at least one engine worked are worth caching.
  if (input.cache_ttl > 0 && succeeded.length > 0) await deps.cache.set(key, answer, input.cache_ttl * 1000);
  // The cache may now hold (and have frozen) that answer: the caller gets a copy.
  return finish({ ...answer }, input, started, deps.linkPolicy);
}

/** Completes an answer the caller owns (a copy): its processing time and, when asked for, its markdown. */
function finish(
  out: SearchAnswer,
  input: SearchInput,
  started: number,
  linkPolicy: LinkPolicy | undefined,
): SearchAnswer {
  out.processing_time_ms = Math.round(performance.now() - started);
  if (input.output_format === 'markdown') {
    out.markdown = renderSearchMarkdown(
      {
        query: out.search_metadata.query,
        results: out.results,
        search_metadata: out.search_metadata,
      },
      linkPolicy ? { linkPolicy } : {},
    );
  } else if (out.markdown !== undefined) {
    // Only an answer cached by another build could carry one; deleting an absent key is not needed.
    delete out.markdown;
  }
  return out;
}

function relevanceOf(query: string, result: { title: string; snippet: string }): number {
  return lexicalRelevance(query, { title: result.title, snippet: result.snippet });
}
