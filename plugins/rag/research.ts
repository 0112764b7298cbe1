/**
 * POST /api/v1/rag/research: build a corpus on a topic (docs/rag.md).
 *
 * Queries: one per category (templates without an LLM; the fast LLM tier
 * writes them when configured), then the research loop (services/research)
 * searches, reads, deduplicates and, for deep, searches again for the
 * categories no page covered. Each round's pages are chunked, embedded,
 * summarised and stored as they come, and the corpus record is updated in the
 * same step; it turns "complete" at the end, or "incomplete" when the build
 * stops early (cancelled, failed, or the process died — see
 * plugins/rag/corpora/corpus-store.ts). An incomplete corpus can be resumed.
 *
 * | depth    | queries | target sources | rounds | default timeout | categories by default |
 * |----------|---------|----------------|--------|-----------------|-----------------------|
 * | quick    | 3       | 8              | 1      | 90 s            | overview, current_state, practical |
 * | standard | 6       | 20             | 1      | 180 s           | + history, technical, best_practices |
 * | deep     | 10      | 40             | 2      | 420 s           | all ten |
 */
import { roundTo } from '../../core/rounding.js';
import type { RagServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { modelFor } from '../../services/llm/model-choice.js';
import { extractiveSummary, writtenSummaries } from '../../services/answers/summary.js';
import type { CorpusStore } from './corpora/corpus-store.js';
import { prepareSources } from './corpora/prepare.js';
import { pooledChunker } from '../../services/chunking/lead.js';
import type { CorpusRecord } from './corpora/types.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { rankPagePassages } from '../../services/ranking/page-passages.js';
import { rerankerForRequest, withReranker } from '../../services/ranking/reranker.js';
import { runResearch } from '../../services/research/loop.js';
import {
  CATEGORY_TEMPLATES,
  FACETS,
  planQuestions,
  RAG_CATEGORIES,
  type RagCategory,
} from '../../services/research/plan.js';
import { newSeenSources, type Source } from '../../services/web-search/gather.js';
import { normalizeUrl } from '../../services/web-search/url-normalize.js';
import type { RagDepth, RagResearchInput, RagResearchResult } from './schemas.js';
import { clip, defaultEngines } from './search.js';

interface DepthProfile {
  queries: number;
  sources: number;
  rounds: number;
  timeoutSeconds: number;
  categories: RagCategory[];
}

export const RAG_DEPTH_PROFILES: Record<RagDepth, DepthProfile> = {
  quick: {
    queries: 3,
    sources: 8,
    rounds: 1,
    timeoutSeconds: 90,
    categories: ['overview', 'current_state', 'practical'],
  },
  standard: {
    queries: 6,
    sources: 20,
    rounds: 1,
    timeoutSeconds: 180,
    categories: ['overview', 'history', 'current_state', 'technical', 'practical', 'best_practices'],
  },
  deep: { queries: 10, sources: 40, rounds: 2, timeoutSeconds: 420, categories: [...RAG_CATEGORIES] },
};

/** The build parameters kept in the corpus record (what resume needs). */
export interface BuildParameters {
  depth: RagDepth;
  categories: RagCategory[];
  engines: string[];
  target_sources: number;
  num_queries: number;
  scrape_content: boolean;
  generate_embeddings: boolean;
  language: string;
  timeout_seconds: number;
  /** The cross-encoder that ordered the passages (set when a build finishes), null or absent when none did. */
  reranked_by?: string | null;
}

async function requireEmbedder(services: RagServices): Promise<Embedder> {
  try {
    return await services.semantic.embedder();
  } catch (error) {
    throw new AppError(
      'UNAVAILABLE',
      `a corpus needs an embedding model and none could be loaded: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export function buildParameters(services: RagServices, input: RagResearchInput): BuildParameters {
  const profile = RAG_DEPTH_PROFILES[input.depth];
  const categories = input.categories ? [...new Set(input.categories)] : profile.categories;
  return {
    depth: input.depth,
    categories,
    engines: defaultEngines(services, input.engines),
    target_sources: input.target_sources ?? profile.sources,
    num_queries: input.num_queries ?? (input.categories ? categories.length : profile.queries),
    scrape_content: input.scrape_content,
    generate_embeddings: input.generate_embeddings,
    language: input.language,
    timeout_seconds: input.timeout ?? profile.timeoutSeconds,
  };
}

/** Starts a build: plans the queries, writes the record ("building"), runs it. */
export async function researchCorpus(
  services: RagServices,
  input: RagResearchInput,
  ctx: CallContext,
  corpusId?: string,
): Promise<RagResearchResult> {
  const started = performance.now();
  const params = buildParameters(services, input);
  const embedder = await requireEmbedder(services);
  const store = await services.corpora.store();
  ctx.progress({ progress: 0, message: `planning ${params.num_queries} queries` });
  const templates = [...params.categories.map((c) => CATEGORY_TEMPLATES[c]), ...FACETS.slice(1)];
  const plan = await planQuestions(input.topic, {
    count: params.num_queries,
    templates,
    guidance: `Cover these aspects: ${params.categories.join(', ')}.`,
    llm: modelFor(services.llm, 'research-plan'),
    language: params.language,
    signal: ctx.signal,
    logger: ctx.logger,
  });
  const record = await store.create({
    topic: input.topic,
    parameters: { ...params, planned_by: plan.plannedBy },
    queries_planned: plan.questions,
    embedding_model: embedder.info().id,
    dimensions: embedder.info().dimensions,
    ...(corpusId ? { corpus_id: corpusId } : {}),
    ...(ctx.caller ? { owner_id: ctx.caller.id } : {}),
    maxPerOwner: services.config.quotas.corpora,
  });
  return build(services, store, record, embedder, ctx, started);
}

/** Resumes an incomplete build with the queries it had not run yet; a complete corpus is answered as it is. */
export async function resumeCorpus(
  services: RagServices,
  corpusId: string,
  ctx: CallContext,
): Promise<RagResearchResult> {
  const started = performance.now();
  const store = await services.corpora.store();
  const existing = await store.requireFor(corpusId, ctx.caller);
  if (existing.status === 'complete') return result(store, existing, { found: 0, failures: [] }, started);
  const embedder = await requireEmbedder(services);
  if (embedder.info().id !== existing.embedding_model) {
    throw new AppError(
      'INVALID_INPUT',
      `corpus_id: ${corpusId} was embedded with ${existing.embedding_model}; this installation has ${embedder.info().id}`,
    );
  }
  const record = await store.claim(corpusId);
  return build(services, store, record, embedder, ctx, started);
}

async function build(
  services: RagServices,
  store: CorpusStore,
  record: CorpusRecord,
  embedder: Embedder,
  ctx: CallContext,
  started: number,
): Promise<RagResearchResult> {
  const params = record.parameters as unknown as BuildParameters;
  const corpusId = record.corpus_id;
  const remaining = record.queries_planned.filter((q) => !record.queries_executed.includes(q));
  const have = await store.sources(corpusId);
  const seen = newSeenSources();
  for (const source of have) seen.urls.add(normalizeUrl(source.url));
  const wanted = Math.max(0, params.target_sources - have.length);
  const rounds = RAG_DEPTH_PROFILES[params.depth].rounds;
  const llm = modelFor(services.llm, 'page-summary');
  const reranker = rerankerForRequest(await services.models.passageReranker());
  let step = 0;
  const report = (message: string) => ctx.progress({ progress: ++step, message });
  report(`corpus ${corpusId}: ${remaining.length} queries to run, ${wanted} sources wanted`);

  const store_ = async (fresh: Source[], round: number, queries: string[]) => {
    let stored = 0;
    if (fresh.length > 0) {
      const pages = fresh.map((s) => ({ title: s.title, text: s.text }));
      const ranked = await rankPagePassages(record.topic, pages, embedder, {
        signal: ctx.signal,
        reranker,
        chunker: pooledChunker(services.parsing, ctx.signal),
      });
      const written = llm
        ? await writtenSummaries(llm, record.topic, pages, { signal: ctx.signal, logger: ctx.logger })
        : [];
      const summaries: string[] = [];
      for (const [i, s] of fresh.entries())
        summaries.push(
          written[i] ?? (await extractiveSummary(record.topic, s.text, embedder, { reranker, signal: ctx.signal })),
        );
      const now = new Date().toISOString();
      const prepared = await prepareSources(
        fresh.map((s, i) => ({
          url: s.url,
          title: s.title,
          content: s.text,
          summary: summaries[i]!,
          engine: s.engines[0] ?? '',
          scraped_at: now,
          relevance_score: ranked[i]!.score,
          query: s.queries[0] ?? record.topic,
        })),
        embedder,
        pooledChunker(services.parsing, ctx.signal),
        ctx.signal,
      );
      stored = (await store.addSources(corpusId, prepared)).length;
    }
    const counts = await store.counts(corpusId);
    await store.update(corpusId, (r) => ({
      ...r,
      queries_executed: [...new Set([...r.queries_executed, ...queries])],
      rounds_done: r.rounds_done + 1,
      counts: { ...r.counts, sources: counts.sources, chunks: counts.chunks },
    }));
    report(`round ${round}: stored ${stored} sources (${counts.sources} in the corpus, ${counts.chunks} chunks)`);
  };

  try {
    const outcome =
      remaining.length > 0 && wanted > 0
        ? await runResearch(services.webSearch, {
            subject: record.topic,
            questions: remaining,
            plans: params.engines.map((engine) => ({ engine, query: record.topic })),
            rounds,
            pagesPerRound: Math.ceil(wanted / rounds),
            readPages: params.scrape_content,
            resultsPerEngine: 10,
            language: params.language,
            deadline: started + params.timeout_seconds * 1000,
            signal: ctx.signal,
            embedder,
            reranker,
            chunker: pooledChunker(services.parsing, ctx.signal),
            llm,
            logger: ctx.logger,
            seen,
            progress: ({ message }) => report(message),
            onSources: store_,
          })
        : null;
    const counts = await store.counts(corpusId);
    const done = await store.update(corpusId, (r) => ({
      ...r,
      // Kept for model_used: a corpus read back later says what ordered its passages.
      parameters: {
        ...r.parameters,
        reranked_by:
          (reranker?.answered ? reranker.id : null) ?? (r.parameters as Partial<BuildParameters>).reranked_by ?? null,
      },
      status: 'complete',
      status_reason: null,
      owner: null,
      counts: {
        sources: counts.sources,
        chunks: counts.chunks,
        failed: r.counts.failed + (outcome?.pagesFailed ?? 0),
        duplicates: r.counts.duplicates + (outcome?.duplicates ?? 0),
      },
    }));
    report('indexing the corpus');
    await store.maintain(corpusId);
    return result(store, done, { found: outcome?.found ?? 0, failures: outcome?.failures ?? [] }, started);
  } catch (error) {
    const reason = ctx.signal.aborted ? 'the build was cancelled' : `the build failed: ${(error as Error).message}`;
    await store
      .update(corpusId, (r) => ({ ...r, status: 'incomplete', status_reason: reason, owner: null }))
      .catch((updateError: unknown) =>
        ctx.logger.error({ err: updateError, corpus: corpusId }, 'could not mark the corpus incomplete'),
      );
    throw error;
  }
}

async function result(
  store: CorpusStore,
  record: CorpusRecord,
  outcome: { found: number; failures: Array<{ url: string; stage: string; reason: string }> },
  started: number,
): Promise<RagResearchResult> {
  const params = record.parameters as unknown as BuildParameters & { planned_by?: string };
  const reranker = params.reranked_by ? { id: params.reranked_by } : null;
  const sources = (await store.sources(record.corpus_id, { withContent: true })).sort(
    (a, b) => b.relevance_score - a.relevance_score,
  );
  const vectors = params.generate_embeddings ? await store.sourceVectors(record.corpus_id) : null;
  const summarisedBy =
    params.planned_by && params.planned_by !== 'templates' ? params.planned_by : 'templates + extractive';
  return {
    topic: record.topic,
    corpus_id: record.corpus_id,
    sources: sources.map((s) => {
      const out: RagResearchResult['sources'][number] = {
        id: s.source_id,
        url: s.url,
        title: s.title,
        content: clip(s.content),
        summary: s.summary,
        relevance_score: s.relevance_score,
        word_count: s.word_count,
        engine: s.engine,
        scraped_at: s.scraped_at,
      };
      const vector = vectors?.get(s.source_id);
      if (vector) out.embedding = Array.from(vector, (v) => roundTo(v, 6));
      return out;
    }),
    total_sources_found: outcome.found,
    queries_executed: record.queries_executed,
    processing_time_ms: Math.round(performance.now() - started),
    depth: params.depth,
    status: record.status,
    counts: record.counts,
    categories: params.categories,
    embedding_model: record.embedding_model,
    model_used: withReranker(summarisedBy, reranker),
    failed_results: outcome.failures.filter((f) => f.stage === 'page').map((f) => ({ url: f.url, error: f.reason })),
  };
}
