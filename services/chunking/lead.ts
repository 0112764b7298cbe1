/**
 * The first chunks of a long text, chunking only as much of it as they can
 * fill. Areas that keep a page's lead (the page index, corpora, ranked
 * passages) would otherwise chunk a whole megabyte page to keep its first
 * few dozen chunks — seconds of CPU on the event loop.
 */
import type { Chunk, ChunkOptions } from './types.js';
import { chunkText, DEFAULT_MAX_TOKENS } from './chunk-text.js';

/**
 * Characters read per wanted token. English averages about 4 per cl100k
 * token; 8 leaves room for longer words and markup so the lead is rarely
 * short, and bounds the work at 8 × maxTokens × (maxChunks + 1) characters.
 */
export const LEAD_CHARS_PER_TOKEN = 8;

/** Chunks a text; chunkText here, the worker pool's chunk task elsewhere. */
export type Chunker = (text: string, options: Omit<ChunkOptions, 'embed'>) => Promise<Chunk[]>;

/** The longest prefix worth chunking for `maxChunks` chunks, cut at a code-point boundary. */
export function leadOf(text: string, maxTokens: number, maxChunks: number): string {
  let end = LEAD_CHARS_PER_TOKEN * maxTokens * (maxChunks + 1);
  if (end >= text.length) return text;
  const unit = text.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * The text's first `maxChunks` chunks, as chunking the whole text gives them
 * (offsets into the whole text). When the text was cut, the chunk that ends
 * at the cut is dropped: it may stop short of where the whole text's would.
 */
export async function chunkLead(
  text: string,
  options: Omit<ChunkOptions, 'embed'>,
  maxChunks: number,
  chunker: Chunker = chunkText,
): Promise<Chunk[]> {
  const lead = leadOf(text, options.maxTokens ?? DEFAULT_MAX_TOKENS, maxChunks);
  return leadChunks(text, lead, await chunker(lead, options), maxChunks);
}

/** chunkLead for many texts in one call of a BatchChunker (one worker-pool task for many pages, not one each). */
export async function chunkLeads(
  texts: string[],
  options: Omit<ChunkOptions, 'embed'>,
  maxChunks: number,
  chunker: BatchChunker,
): Promise<Chunk[][]> {
  const leads = texts.map((text) => leadOf(text, options.maxTokens ?? DEFAULT_MAX_TOKENS, maxChunks));
  const chunked = await chunker(leads, options);
  return texts.map((text, i) => leadChunks(text, leads[i]!, chunked[i]!, maxChunks));
}

function leadChunks(text: string, lead: string, chunks: Chunk[], maxChunks: number): Chunk[] {
  const whole = lead.length === text.length ? chunks : chunks.slice(0, Math.max(1, chunks.length - 1));
  return whole.slice(0, maxChunks);
}

/** Chunks each of many texts; the worker pool's batch chunk task in the app. */
export type BatchChunker = (texts: string[], options: Omit<ChunkOptions, 'embed'>) => Promise<Chunk[][]>;

/** A BatchChunker on this thread (what the worker's chunk-each task runs; callers without a pool). */
export async function chunkEach(texts: string[], options: Omit<ChunkOptions, 'embed'>): Promise<Chunk[][]> {
  const chunked: Chunk[][] = [];
  for (const text of texts) chunked.push(await chunkText(text, options));
  return chunked;
}

/** What chunks in the worker pool (the extraction pool's chunk tasks). */
export interface ChunkPool {
  chunk(text: string, options: Omit<ChunkOptions, 'embed'>, signal?: AbortSignal): Promise<{ chunks: Chunk[] }>;
  chunkEach(texts: string[], options: Omit<ChunkOptions, 'embed'>, signal?: AbortSignal): Promise<Chunk[][]>;
}

/** A Chunker that runs in the worker pool. */
export function pooledChunker(pool: Pick<ChunkPool, 'chunk'>, signal?: AbortSignal): Chunker {
  return async (text, options) => (await pool.chunk(text, options, signal)).chunks;
}

/** A BatchChunker that runs in the worker pool: one task for all the texts. */
export function pooledBatchChunker(pool: Pick<ChunkPool, 'chunkEach'>, signal?: AbortSignal): BatchChunker {
  return (texts, options) => pool.chunkEach(texts, options, signal);
}
