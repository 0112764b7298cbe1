/**
 * A read page made ready for a corpus: its text cut into chunks (the
 * recursive chunker, CORPUS_CHUNK_TOKENS tokens of cl100k, offsets in code
 * points into the stored content) and each chunk embedded on its own text.
 */
import { chunkText } from '../chunking/chunk-text.js';
import type { Embedder } from '../embeddings/types.js';
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

export async function prepareSources(sources: SourceToStore[], embedder: Embedder, signal?: AbortSignal): Promise<StoredSourceInput[]> {
  const chunked = await Promise.all(
    sources.map(async (source) => (await chunkText(source.content, { strategy: 'recursive', maxTokens: CORPUS_CHUNK_TOKENS, overlapTokens: 0 })).slice(0, MAX_CHUNKS_PER_SOURCE)),
  );
  const vectors = await embedder.embed(chunked.flat().map((chunk) => chunk.text), signal);
  let offset = 0;
  return sources.map((source, i) => {
    const chunks = chunked[i]!.map((chunk) => ({ text: chunk.text, start: chunk.start, end: chunk.end, tokens: chunk.tokens, vector: vectors[offset++]! }));
    return { ...source, word_count: source.content.split(/\s+/).filter(Boolean).length, chunks };
  });
}
