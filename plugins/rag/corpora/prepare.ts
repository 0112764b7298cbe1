/**
 * A read page made ready for a corpus: its text cut into chunks (the
 * recursive chunker, CORPUS_CHUNK_TOKENS tokens of cl100k, offsets in code
 * points into the stored content) and each chunk embedded on its own text.
 */
import { chunkLead, type Chunker } from '../../../services/chunking/lead.js';
import type { Embedder } from '../../../services/embeddings/types.js';
import type { StoredSourceInput } from './types.js';

export const CORPUS_CHUNK_TOKENS = 200;
/** Very long pages: their first chunks only (a book-length page would crowd out the rest). */
export const MAX_CHUNKS_PER_SOURCE = 200;

export interface SourceToStore {
  url: string;
  title: string;
  content: string;
  summary: string;
  engine: string;
  scraped_at: string;
  relevance_score: number;
  query: string;
}

/** `chunker`: the worker pool's chunk task, so a long source is not chunked on the event loop. */
export async function prepareSources(
  sources: SourceToStore[],
  embedder: Embedder,
  chunker: Chunker,
  signal?: AbortSignal,
): Promise<StoredSourceInput[]> {
  const options = { strategy: 'recursive', maxTokens: CORPUS_CHUNK_TOKENS, overlapTokens: 0 } as const;
  const chunked = await Promise.all(
    sources.map((source) => chunkLead(source.content, options, MAX_CHUNKS_PER_SOURCE, chunker)),
  );
  const vectors = await embedder.embed(
    chunked.flat().map((chunk) => chunk.text),
    signal,
  );
  let offset = 0;
  return sources.map((source, i) => {
    const chunks = chunked[i]!.map((chunk) => ({
      text: chunk.text,
      start: chunk.start,
      end: chunk.end,
      tokens: chunk.tokens,
      vector: vectors[offset++]!,
    }));
    return { ...source, word_count: source.content.split(/\s+/).filter(Boolean).length, chunks };
  });
}
