/**
 * The chunk table's Arrow schema and the conversions between IndexedPage and
 * table rows. The schema is explicit because LanceDB infers Float64 for plain
 * JS numbers, which would double the vectors' size and break the
 * FixedSizeList<Float32> type the vector indexes expect.
 */
import { Field, FixedSizeList, Float32, Int32, Int64, Schema, Utf8, type DataType } from 'apache-arrow';
import { AppError } from '../../core/errors.js';
import { bareHost } from '../web-search/hosts.js';
import type { IndexedPage } from './types.js';

export const TABLE_NAME = 'chunks';

/** One stored row; `published_at` is the sortable (epoch ms) form of `published_date`. */
export interface ChunkRow {
  url: string;
  title: string;
  domain: string;
  text: string;
  chunk_index: number;
  published_date: string | null;
  published_at: number | null;
  author: string | null;
  fetched_at: number;
  vector: Float32Array;
}

export function chunkSchema(dimensions: number): Schema {
  return new Schema([
    new Field('url', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('domain', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('chunk_index', new Int32(), false),
    new Field('published_date', new Utf8(), true),
    new Field('published_at', new Int64(), true),
    new Field('author', new Utf8(), true),
    new Field('fetched_at', new Int64(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

/**
 * Why an existing table can't be reused with this schema, or null when it can. A different vector
 * width means a different embedding model: its vectors are not comparable with new ones.
 */
export function incompatibility(existing: Schema, dimensions: number): string | null {
  const wanted = chunkSchema(dimensions);
  for (const field of wanted.fields) {
    const found = existing.fields.find((f) => f.name === field.name);
    if (!found) return `column ${field.name} is missing`;
    if (field.name === 'vector') {
      const size = (found.type as DataType & { listSize?: number }).listSize;
      if (size !== dimensions) return `stored vectors have ${size ?? 'unknown'} dimensions, ${dimensions} requested`;
    }
  }
  return null;
}

/** The URL's host as hosts are compared (services/web-search/hosts.ts) — what domain filters match against. */
export function domainOf(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch (cause) {
    throw new AppError('INVALID_INPUT', `not an absolute URL: ${url}`, { cause });
  }
  return normaliseDomain(host);
}

/** Accepts "Example.COM", "www.example.com", "example.com." or a whole URL. */
export function normaliseDomain(input: string): string {
  let host = input.trim().toLowerCase();
  if (host.includes('://')) host = new URL(host).hostname;
  return bareHost(host.replace(/\/.*$/, ''));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Epoch ms of an ISO date or date-time, or null when it does not parse. A date-time without a
 * zone is read as UTC (Date.parse would use the server's local zone, so results would depend on
 * where Quarry runs). With `endOfDay`, a bare date means the last instant of that day, which makes
 * `publishedBefore: "2024-03-31"` include pages dated that day.
 */
export function parseIsoDate(value: string, endOfDay = false): number | null {
  const trimmed = value.trim();
  const dateOnly = DATE_ONLY.test(trimmed);
  const text = dateOnly || HAS_ZONE.test(trimmed) || !trimmed.includes('T') ? trimmed : `${trimmed}Z`;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  return dateOnly && endOfDay ? ms + 86_400_000 - 1 : ms;
}

export function pageRows(page: IndexedPage, dimensions: number, fetchedAt: number): ChunkRow[] {
  const domain = domainOf(page.url);
  const publishedDate = page.publishedDate?.trim() || null;
  return page.chunks.map((chunk, index) => {
    if (chunk.vector.length !== dimensions) {
      throw new AppError(
        'INVALID_INPUT',
        `chunk ${index} of ${page.url} has ${chunk.vector.length} dimensions; the index has ${dimensions}`,
      );
    }
    return {
      url: page.url,
      title: page.title,
      domain,
      text: chunk.text,
      chunk_index: index,
      published_date: publishedDate,
      published_at: publishedDate === null ? null : parseIsoDate(publishedDate),
      author: page.author ?? null,
      fetched_at: fetchedAt,
      vector: chunk.vector,
    };
  });
}
