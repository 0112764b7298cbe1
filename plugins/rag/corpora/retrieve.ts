/**
 * Semantic search over one corpus (docs/rag.md, "Scores"): hybrid candidates
 * (corpus-search.ts, a pool of 4 × limit, at least 40), then every candidate
 * scored with the calibrated passage relevance (services/ranking/
 * passage-relevance.ts) — the stored chunk vectors supply the embedding
 * feature — ordered by that score and cut at min_relevance. A score of 0.5 is
 * where the evidence neither favours nor disfavours the chunk holding the
 * answer, so min_relevance 0.5 keeps the chunks more likely relevant than not.
 */
import type { Embedder } from '../../../services/embeddings/types.js';
import { calibration, centred } from '../../../services/ranking/calibration.js';
import { passageFeatures, probability, type PassageVectorCache } from '../../../services/ranking/passage-relevance.js';
import type { CorpusStore } from './corpus-store.js';
import type { ChunkHit, CorpusRecord } from './types.js';

export interface RetrievedChunk extends ChunkHit {
  score: number;
}

export interface RetrieveOptions {
  limit: number;
  minRelevance: number;
  /** Null when no model could be loaded: full text only. */
  embedder: Embedder | null;
  signal?: AbortSignal;
  /** Ordering: the calibrated score (default) or the fused rank alone. */
  order?: 'calibrated' | 'fused';
}

export interface Retrieval {
  hits: RetrievedChunk[];
  /** Whether the vector leg ran (the corpus's model is the one loaded now). */
  vectorUsed: boolean;
}

export async function retrieve(
  store: CorpusStore,
  record: CorpusRecord,
  query: string,
  options: RetrieveOptions,
): Promise<Retrieval> {
  const embedder = options.embedder;
  const sameModel =
    embedder !== null &&
    embedder.info().id === record.embedding_model &&
    embedder.info().dimensions === record.dimensions;
  const vector = sameModel ? (await embedder.embed([query], options.signal))[0]! : undefined;
  const pool = Math.max(options.limit * 4, 40);
  const candidates = await store.search(record.corpus_id, { ...(vector ? { vector } : {}), text: query, limit: pool });
  if (candidates.length === 0) return { hits: [], vectorUsed: vector !== undefined };
  const cache: PassageVectorCache = new Map();
  if (sameModel) {
    const { center } = await calibration(embedder);
    for (const c of candidates) if (c.vector) cache.set(c.text, centred(c.vector, center));
  }
  const features = await passageFeatures(
    query,
    candidates.map((c) => ({ text: c.text, title: c.title })),
    sameModel ? embedder : null,
    options.signal,
    cache,
  );
  const scored = candidates.map((c, i) => ({ ...c, score: probability(features[i]!) }));
  if ((options.order ?? 'calibrated') === 'calibrated') scored.sort((a, b) => b.score - a.score || b.fused - a.fused);
  return {
    hits: scored.filter((h) => h.score >= options.minRelevance).slice(0, options.limit),
    vectorUsed: vector !== undefined,
  };
}
