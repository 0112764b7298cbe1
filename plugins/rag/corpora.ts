/**
 * Corpus routes: semantic search over one corpus (hybrid retrieval, calibrated
 * scores), and the management routes beyond the spec: list, get, delete, add
 * URLs or texts.
 */
import type { RagServices } from './uses.js';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { extractiveSummary } from '../../services/answers/summary.js';
import { prepareSources } from './corpora/prepare.js';
import { pooledChunker } from '../../services/chunking/lead.js';
import { retrieve } from './corpora/retrieve.js';
import type { CorpusRecord } from './corpora/types.js';
import { rankPagePassages } from '../../services/ranking/page-passages.js';
import type {
  corpusAddInputSchema,
  corpusAddOutputSchema,
  corpusGetOutputSchema,
  corporaListOutputSchema,
  semanticSearchInputSchema,
  semanticSearchOutputSchema,
} from './schemas.js';

type SemanticSearchInput = z.infer<typeof semanticSearchInputSchema>;
type SemanticSearchOutput = z.infer<typeof semanticSearchOutputSchema>;

export async function semanticSearch(
  services: RagServices,
  input: SemanticSearchInput,
  ctx: CallContext,
): Promise<SemanticSearchOutput> {
  const started = performance.now();
  const store = await services.corpora.store();
  const record = await store.requireFor(input.corpus_id, ctx.caller);
  const embedder = await services.semantic.embedderOrNull(ctx.logger);
  const { hits, vectorUsed } = await retrieve(store, record, input.query, {
    limit: input.limit,
    minRelevance: input.min_relevance,
    embedder,
    signal: ctx.signal,
  });
  const sources = await store.sourcesById(
    record.corpus_id,
    hits.map((h) => h.source_id),
  );
  return {
    corpus_id: record.corpus_id,
    query: input.query,
    results: hits.map((hit) => ({
      id: hit.source_id,
      score: hit.score,
      url: hit.url,
      title: hit.title,
      summary: sources.get(hit.source_id)?.summary ?? '',
      text: hit.text,
      chunk_index: hit.chunk_index,
      start: hit.start,
      end: hit.end,
      fused: hit.fused,
    })),
    total_results: hits.length,
    processing_time_ms: Math.round(performance.now() - started),
    corpus_status: record.status,
    vector_search: vectorUsed,
  };
}

function summaryOf(record: CorpusRecord, counts: { sources: number; chunks: number }) {
  return {
    corpus_id: record.corpus_id,
    topic: record.topic,
    status: record.status,
    status_reason: record.status_reason,
    created_at: record.created_at,
    updated_at: record.updated_at,
    counts,
    parameters: record.parameters,
    queries_planned: record.queries_planned,
    queries_executed: record.queries_executed,
    embedding_model: record.embedding_model,
  };
}

export async function listCorpora(
  services: RagServices,
  ctx: CallContext,
): Promise<z.infer<typeof corporaListOutputSchema>> {
  const store = await services.corpora.store();
  const records = await store.listFor(ctx.caller);
  const corpora = await Promise.all(
    records.map(async (record) => summaryOf(record, await store.counts(record.corpus_id))),
  );
  return { corpora, total: corpora.length };
}

export async function getCorpus(
  services: RagServices,
  corpusId: string,
  ctx: CallContext,
): Promise<z.infer<typeof corpusGetOutputSchema>> {
  const store = await services.corpora.store();
  const record = await store.requireFor(corpusId, ctx.caller);
  const sources = await store.sources(corpusId);
  return {
    ...summaryOf(record, await store.counts(corpusId)),
    sources: sources.map((s) => ({
      id: s.source_id,
      url: s.url,
      title: s.title,
      summary: s.summary,
      word_count: s.word_count,
      engine: s.engine,
      scraped_at: s.scraped_at,
      relevance_score: s.relevance_score,
      chunks: s.chunk_count,
    })),
  };
}

export async function deleteCorpus(services: RagServices, corpusId: string, ctx: CallContext) {
  const store = await services.corpora.store();
  await store.requireFor(corpusId, ctx.caller);
  const counts = await store.delete(corpusId);
  return {
    corpus_id: corpusId,
    deleted: true as const,
    sources_deleted: counts.sources,
    chunks_deleted: counts.chunks,
  };
}

/** Adds pages (read now) and texts to an existing corpus that is not being built. */
export async function addToCorpus(
  services: RagServices,
  input: z.infer<typeof corpusAddInputSchema>,
  ctx: CallContext,
): Promise<z.infer<typeof corpusAddOutputSchema>> {
  const store = await services.corpora.store();
  const record = await store.requireFor(input.corpus_id, ctx.caller);
  if (record.status === 'building')
    throw new AppError('INVALID_INPUT', `corpus_id: ${input.corpus_id} is being built now; add once it is finished`);
  const embedder = await services.semantic.embedder();
  if (embedder.info().id !== record.embedding_model) {
    throw new AppError(
      'INVALID_INPUT',
      `corpus_id: ${input.corpus_id} was embedded with ${record.embedding_model}; this installation has ${embedder.info().id}`,
    );
  }
  const failed: Array<{ url: string; error: string }> = [];
  const items: Array<{ url: string; title: string; text: string; engine: string }> = [];
  if (input.urls) {
    ctx.progress({ progress: 0, total: input.urls.length, message: `reading ${input.urls.length} pages` });
    const pages = await services.scraper.scrapeMany(input.urls, {
      timeoutMs: 60_000,
      signal: ctx.signal,
      extract: { markdown: false, includeImages: false, includeLinks: false },
    });
    pages.forEach((page, i) => {
      const url = input.urls![i]!;
      if (page.success && page.text.trim())
        items.push({ url, title: page.title || url, text: page.text, engine: 'added' });
      else failed.push({ url, error: page.failureReason ?? 'no text could be extracted' });
    });
  }
  for (const text of input.texts ?? []) {
    const url = text.url ?? `urn:quarry:text:${createHash('sha256').update(text.text).digest('hex').slice(0, 16)}`;
    items.push({
      url,
      title: text.title ?? text.text.slice(0, 80).replace(/\s+/g, ' '),
      text: text.text,
      engine: 'text',
    });
  }
  // Scored as a build scores its pages (rag/research.ts), so added sources rank among the others on one scale.
  const reranker = await services.models.passageReranker();
  const ranked = await rankPagePassages(
    record.topic,
    items.map((i) => ({ title: i.title, text: i.text })),
    embedder,
    { signal: ctx.signal, reranker, chunker: pooledChunker(services.parsing, ctx.signal) },
  );
  const now = new Date().toISOString();
  const prepared = await prepareSources(
    await Promise.all(
      items.map(async (item, i) => ({
        url: item.url,
        title: item.title,
        content: item.text,
        summary: await extractiveSummary(record.topic, item.text, embedder, { reranker, signal: ctx.signal }),
        engine: item.engine,
        scraped_at: now,
        relevance_score: ranked[i]!.score,
        query: 'added',
      })),
    ),
    embedder,
    pooledChunker(services.parsing, ctx.signal),
    ctx.signal,
  );
  const stored = await store.addSources(input.corpus_id, prepared);
  const counts = await store.counts(input.corpus_id);
  await store.update(input.corpus_id, (r) => ({
    ...r,
    counts: { ...r.counts, sources: counts.sources, chunks: counts.chunks },
  }));
  await store.maintain(input.corpus_id);
  return {
    corpus_id: input.corpus_id,
    added: stored.map((s) => ({ id: s.source_id, url: s.url, title: s.title, chunks: s.chunk_count })),
    failed,
    counts,
  };
}
