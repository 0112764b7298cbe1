/**
 * Candidates from one corpus's chunk table: a vector leg (cosine, exact below
 * the ANN threshold) and a full-text leg (BM25 on the stemmed text), each
 * ranking a pool of `limit` chunks, fused by reciprocal rank
 * (services/vectors/fusion.ts). Either leg alone when only a vector or only a
 * text is given.
 */
import { roundScore } from '../../../core/rounding.js';
import { MatchQuery, type Table } from '@lancedb/lancedb';
import { AppError } from '../../../core/errors.js';
import { reciprocalRankFusion } from '../../../services/vectors/fusion.js';
import type { ChunkHit } from './types.js';

const COLUMNS = ['source_id', 'chunk_index', 'text', 'start', 'end', 'url', 'title', 'vector'];
const MAX_LIMIT = 1000;

interface Row {
  source_id: string;
  chunk_index: number;
  text: string;
  start: number;
  end: number;
  url: string;
  title: string;
  vector: ArrayLike<number> & { toArray?(): ArrayLike<number> };
}

const keyOf = (row: Row) => `${row.source_id}#${row.chunk_index}`;

function toVector(value: Row['vector'] | null | undefined): Float32Array | null {
  if (!value) return null;
  return Float32Array.from(typeof value.toArray === 'function' ? value.toArray() : value);
}

export async function searchCorpusChunks(
  table: Table,
  request: { vector?: Float32Array; text?: string; limit: number },
): Promise<ChunkHit[]> {
  const limit = Math.min(Math.max(1, Math.floor(request.limit)), MAX_LIMIT);
  const text = request.text?.trim() || undefined;
  if (!request.vector && !text) throw new AppError('INVALID_INPUT', 'a corpus search needs a vector, a text or both');
  const [byVector, byText] = await Promise.all([
    request.vector
      ? (table
          .vectorSearch(request.vector)
          .distanceType('cosine')
          .select([...COLUMNS, '_distance'])
          .limit(limit)
          .toArray() as Promise<Row[]>)
      : Promise.resolve([] as Row[]),
    // A MatchQuery takes the words as words: quotes, AND, parentheses are not query syntax here.
    text
      ? (table
          .query()
          .fullTextSearch(new MatchQuery(text, 'text'))
          .select([...COLUMNS, '_score'])
          .limit(limit)
          .toArray() as Promise<Row[]>)
      : Promise.resolve([] as Row[]),
  ]);
  const rows = new Map([...byText, ...byVector].map((row) => [keyOf(row), row]));
  const vectorRank = new Map(byVector.map((row, i) => [keyOf(row), i + 1]));
  const textRank = new Map(byText.map((row, i) => [keyOf(row), i + 1]));
  const lists = [byVector.map(keyOf), byText.map(keyOf)].filter((list) => list.length > 0);
  const fused = reciprocalRankFusion(lists.length > 0 ? lists : [[]]);
  return [...fused].slice(0, limit).map(([key, score]) => {
    const row = rows.get(key)!;
    return {
      source_id: row.source_id,
      chunk_index: Number(row.chunk_index),
      text: row.text,
      start: Number(row.start),
      end: Number(row.end),
      url: row.url,
      title: row.title,
      vector: toVector(row.vector),
      fused: roundScore(score),
      vector_rank: vectorRank.get(key) ?? null,
      text_rank: textRank.get(key) ?? null,
    };
  });
}
