/** What a RAG corpus is: a durable record, its sources, and their chunks with embeddings (docs/rag.md). */

export type CorpusStatus = 'building' | 'complete' | 'incomplete';

export interface CorpusOwner {
  pid: number;
  host: string;
  /** Random per opened store, so a later store in the same process knows the build is not its own. */
  instance: string;
}

export interface CorpusRecord {
  corpus_id: string;
  topic: string;
  status: CorpusStatus;
  /** Why the corpus is incomplete. */
  status_reason: string | null;
  /** The request that built it (depth, categories, engines, …). */
  parameters: Record<string, unknown>;
  /** Every query the build plans to run, and those already run (resume continues with the rest). */
  queries_planned: string[];
  queries_executed: string[];
  rounds_done: number;
  counts: { sources: number; chunks: number; failed: number; duplicates: number };
  embedding_model: string;
  dimensions: number;
  created_at: string;
  updated_at: string;
  /** The build's process while it runs (crash recovery); not who the corpus belongs to. */
  owner: CorpusOwner | null;
  /**
   * The principal the corpus belongs to (core/principal.ts); absent on corpora made before ownership existed (admins
   * only).
   */
  owner_id?: string;
}

export interface StoredSourceInput {
  url: string;
  title: string;
  /** The full extracted text; chunk offsets point into it. */
  content: string;
  summary: string;
  word_count: number;
  engine: string;
  scraped_at: string;
  relevance_score: number;
  /** The query (or "added") that brought it in. */
  query: string;
  chunks: Array<{ text: string; start: number; end: number; tokens: number; vector: Float32Array }>;
}

/** A stored source as read back: its fields without the chunks, which it counts. */
export interface StoredSource extends Omit<StoredSourceInput, 'chunks'> {
  source_id: string;
  chunk_count: number;
}

export interface ChunkHit {
  source_id: string;
  chunk_index: number;
  text: string;
  /** Offsets in the source's content, Unicode code points, end exclusive. */
  start: number;
  end: number;
  url: string;
  title: string;
  /** The stored embedding (raw, unit length), when the vector leg was used. */
  vector: Float32Array | null;
  /** Reciprocal rank fusion of the two legs, 1 = first in both (services/vectors/fusion.ts). */
  fused: number;
  vector_rank: number | null;
  text_rank: number | null;
}
