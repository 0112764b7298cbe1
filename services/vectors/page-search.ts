/**
 * Vector, full-text and hybrid search over the chunk table. Filters are
 * applied inside LanceDB before ranking (prefilter), so a narrow domain or
 * date filter still returns `limit` hits when that many match.
 */
import { MatchQuery, type Table } from '@lancedb/lancedb';
import { AppError } from '../../core/errors.js';
import { searchFilter } from './filters.js';
import { cosineScore, reciprocalRankFusion, textScore } from './fusion.js';
import type { PageIndexHit, PageIndexQuery } from './types.js';
import type { ChunkRow } from './schema.js';

const COLUMNS = ['url', 'title', 'domain', 'text', 'chunk_index', 'published_date', 'author'];
const MAX_LIMIT = 1000;

/** The selected columns of a row, plus the score LanceDB adds to each hit. */
type HitRow = Pick<ChunkRow, 'url' | 'title' | 'domain' | 'text' | 'chunk_index' | 'published_date' | 'author'> & {
  _distance?: number;
  _score?: number;
};

function toHit(row: HitRow, score: number): PageIndexHit {
  return {
    url: row.url,
    title: row.title,
    domain: row.domain,
    text: row.text,
    chunkIndex: row.chunk_index,
    publishedDate: row.published_date ?? null,
    author: row.author ?? null,
    score,
  };
}

const keyOf = (row: HitRow) => `${row.chunk_index}\u0000${row.url}`;

export interface SearchContext {
  table: Table;
  dimensions: number;
  /** Resolves once a full-text index exists (created lazily on the first text query). */
  ensureFts: () => Promise<void>;
}

async function vectorLeg(
  ctx: SearchContext,
  vector: Float32Array,
  where: string | undefined,
  limit: number,
): Promise<HitRow[]> {
  // _distance is selected explicitly: LanceDB warns on stderr for every query that leaves it out.
  const query = ctx.table
    .vectorSearch(vector)
    .distanceType('cosine')
    .select([...COLUMNS, '_distance'])
    .limit(limit);
  if (where) query.where(where);
  return (await query.toArray()) as HitRow[];
}

async function textLeg(ctx: SearchContext, text: string, where: string | undefined, limit: number): Promise<HitRow[]> {
  await ctx.ensureFts();
  // A MatchQuery takes the words as words: quotes, AND, parentheses are not query syntax here.
  const query = ctx.table
    .query()
    .fullTextSearch(new MatchQuery(text, 'text'))
    .select([...COLUMNS, '_score'])
    .limit(limit);
  if (where) query.where(where);
  return (await query.toArray()) as HitRow[];
}

export async function searchChunks(ctx: SearchContext, request: PageIndexQuery): Promise<PageIndexHit[]> {
  const limit = Math.min(Math.max(1, Math.floor(request.limit ?? 10)), MAX_LIMIT);
  const text = request.text?.trim() || undefined;
  const vector = request.vector;
  if (!vector && !text) throw new AppError('INVALID_INPUT', 'a page index search needs a vector, a text or both');
  if (vector && vector.length !== ctx.dimensions) {
    throw new AppError(
      'INVALID_INPUT',
      `query vector has ${vector.length} dimensions; the index has ${ctx.dimensions}`,
    );
  }
  const where = searchFilter(request);

  if (vector && !text)
    return (await vectorLeg(ctx, vector, where, limit)).map((row) => toHit(row, cosineScore(row._distance ?? 2)));
  if (text && !vector)
    return (await textLeg(ctx, text, where, limit)).map((row) => toHit(row, textScore(row._score ?? 0)));

  // Hybrid: each leg ranks a deeper pool than asked for, so a chunk ranked moderately by both
  // can overtake one ranked first by a single leg.
  const pool = Math.min(Math.max(limit * 3, 30), MAX_LIMIT);
  const [byVector, byText] = await Promise.all([
    vectorLeg(ctx, vector!, where, pool),
    textLeg(ctx, text!, where, pool),
  ]);
  const rows = new Map([...byText, ...byVector].map((row) => [keyOf(row), row]));
  const fused = reciprocalRankFusion([byVector.map(keyOf), byText.map(keyOf)]);
  return [...fused].slice(0, limit).map(([key, score]) => toHit(rows.get(key)!, score));
}
