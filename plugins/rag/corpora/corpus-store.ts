/**
 * The durable store of RAG corpora, on the embedded LanceDB (schema.ts). Every
 * write is one LanceDB commit and goes through one serial queue.
 *
 * Crash safety: a corpus's record is written first, with status "building"
 * and its owner (process id, host, store instance); sources and chunks follow
 * in commits; the record turns "complete" last. When a store opens, a
 * "building" record whose owner is gone (the process died, or it was an
 * earlier store in this process) becomes "incomplete" — resumable or
 * deletable, never silently half-written — and tables left without a record
 * (a crash during a delete) are dropped.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { connect, Index, type Connection, type Table } from '@lancedb/lancedb';
import { AppError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { mayAccess, quotaExceeded, type Principal } from '../../../core/principal.js';
import { meanVector } from '../../../services/ranking/scoring.js';
import { createFtsIndex } from '../../../services/vectors/maintenance.js';
import { sqlString } from '../../../services/vectors/filters.js';
import { SerialQueue } from '../../../services/vectors/serial-queue.js';
import { searchCorpusChunks } from './corpus-search.js';
import { chunkRowsTable } from './chunk-table.js';
import {
  chunksSchema,
  chunksTable,
  CORPUS_ID,
  RECORDS_TABLE,
  recordsSchema,
  sourcesSchema,
  sourcesTable,
} from './schema.js';
import type { ChunkHit, CorpusOwner, CorpusRecord, StoredSource, StoredSourceInput } from './types.js';

export interface CorpusStoreOptions {
  dir: string;
  logger: Logger;
  /** Chunks from which a corpus gets an ANN index (IVF_FLAT); below it vector search is exact. Default 20,000. */
  annThreshold?: number;
}

export interface NewCorpus {
  topic: string;
  parameters: Record<string, unknown>;
  queries_planned: string[];
  embedding_model: string;
  dimensions: number;
  /** A pre-allocated id (job form); generated when absent. */
  corpus_id?: string;
  /** The principal it belongs to. */
  owner_id?: string;
  /** Corpora that principal may have (quotas.corpora); QUOTA_EXCEEDED past it. */
  maxPerOwner?: number;
}

export interface CorpusSearch {
  vector?: Float32Array;
  text?: string;
  /** Candidates wanted, best fused first. */
  limit: number;
}

const SOURCE_COLUMNS = [
  'source_id',
  'url',
  'title',
  'content',
  'summary',
  'word_count',
  'engine',
  'scraped_at',
  'relevance_score',
  'query',
  'chunk_count',
];

export function newCorpusId(): string {
  return `corpus_${randomBytes(8).toString('hex')}`;
}

function newSourceId(): string {
  return `src_${randomBytes(6).toString('hex')}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class CorpusStore {
  private readonly queue = new SerialQueue();
  private readonly tables = new Map<string, Table>();
  /** Corpora whose chunks changed since their full-text index was (re)built. */
  private readonly ftsStale = new Set<string>();
  private readonly ftsReady = new Set<string>();
  private closed = false;
  readonly owner: CorpusOwner = { pid: process.pid, host: hostname(), instance: randomBytes(6).toString('hex') };

  private constructor(
    private readonly db: Connection,
    private readonly records: Table,
    private readonly options: CorpusStoreOptions,
  ) {}

  static async open(options: CorpusStoreOptions): Promise<CorpusStore> {
    mkdirSync(options.dir, { recursive: true });
    const db = await connect(options.dir);
    const names = await db.tableNames();
    const records = names.includes(RECORDS_TABLE)
      ? await db.openTable(RECORDS_TABLE)
      : await db.createEmptyTable(RECORDS_TABLE, recordsSchema(), { mode: 'create', existOk: true });
    const store = new CorpusStore(db, records, options);
    await store.recover(names);
    return store;
  }

  /** Marks builds whose owner is gone as incomplete and drops tables without a record. */
  private async recover(names: string[]): Promise<void> {
    const all = await this.list();
    for (const record of all) {
      if (record.status !== 'building') continue;
      const owner = record.owner;
      const gone =
        !owner ||
        owner.host !== this.owner.host ||
        !isAlive(owner.pid) ||
        (owner.pid === this.owner.pid && owner.instance !== this.owner.instance);
      if (!gone) continue;
      await this.writeRecord({
        ...record,
        status: 'incomplete',
        status_reason: 'the build was interrupted (its process ended before it finished)',
        owner: null,
      });
      this.options.logger.warn({ corpus: record.corpus_id }, 'corpus store: an interrupted build is marked incomplete');
    }
    const known = new Set(all.map((r) => r.corpus_id));
    for (const name of names) {
      const match = /^(corpus_[a-f0-9]+)_(sources|chunks)$/.exec(name);
      if (match && !known.has(match[1]!)) {
        await this.db.dropTable(name);
        this.options.logger.warn({ table: name }, 'corpus store: dropped a table left without its corpus record');
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new AppError('UNAVAILABLE', 'the corpus store is closed');
  }

  private async writeRecord(record: CorpusRecord): Promise<CorpusRecord> {
    const next = { ...record, updated_at: new Date().toISOString() };
    await this.records
      .mergeInsert('corpus_id')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute([{ corpus_id: next.corpus_id, record: JSON.stringify(next), updated_at: Date.now() }]);
    return next;
  }

  async create(input: NewCorpus): Promise<CorpusRecord> {
    this.assertOpen();
    const corpusId = input.corpus_id ?? newCorpusId();
    if (!CORPUS_ID.test(corpusId)) throw new AppError('INVALID_INPUT', `corpus_id: not a corpus id: ${corpusId}`);
    const now = new Date().toISOString();
    const record: CorpusRecord = {
      corpus_id: corpusId,
      topic: input.topic,
      status: 'building',
      status_reason: null,
      parameters: input.parameters,
      queries_planned: input.queries_planned,
      queries_executed: [],
      rounds_done: 0,
      counts: { sources: 0, chunks: 0, failed: 0, duplicates: 0 },
      embedding_model: input.embedding_model,
      dimensions: input.dimensions,
      created_at: now,
      updated_at: now,
      owner: this.owner,
      ...(input.owner_id !== undefined ? { owner_id: input.owner_id } : {}),
    };
    return this.queue.run(async () => {
      if (await this.getRecord(corpusId)) throw new AppError('INVALID_INPUT', `corpus_id: ${corpusId} exists already`);
      if (input.maxPerOwner !== undefined) await this.assertRoomFor(input.owner_id, input.maxPerOwner);
      return this.writeRecord(record);
    });
  }

  private async getRecord(corpusId: string): Promise<CorpusRecord | null> {
    const rows = (await this.records
      .query()
      .where(`corpus_id = ${sqlString(corpusId)}`)
      .select(['record'])
      .toArray()) as Array<{ record: string }>;
    return rows[0] ? (JSON.parse(rows[0].record) as CorpusRecord) : null;
  }

  async get(corpusId: string): Promise<CorpusRecord | null> {
    this.assertOpen();
    if (!CORPUS_ID.test(corpusId)) return null;
    return this.getRecord(corpusId);
  }

  /** The record, or NOT_FOUND naming the corpus. */
  async require(corpusId: string): Promise<CorpusRecord> {
    const record = await this.get(corpusId);
    if (!record)
      throw new AppError('NOT_FOUND', `corpus_id: no corpus ${corpusId}`, { details: { field: 'corpus_id' } });
    return record;
  }

  /** The record when viewer may see it; NOT_FOUND otherwise, as for a corpus that does not exist. */
  async requireFor(corpusId: string, viewer: Principal | undefined): Promise<CorpusRecord> {
    const record = await this.get(corpusId);
    if (!record || !mayAccess(viewer, record.owner_id))
      throw new AppError('NOT_FOUND', `corpus_id: no corpus ${corpusId}`, { details: { field: 'corpus_id' } });
    return record;
  }

  /** The corpora viewer may see, newest first. */
  async listFor(viewer: Principal | undefined): Promise<CorpusRecord[]> {
    return (await this.list()).filter((record) => mayAccess(viewer, record.owner_id));
  }

  /** QUOTA_EXCEEDED when the principal has `max` corpora already. */
  async assertRoomFor(ownerId: string | undefined, max: number): Promise<void> {
    const owned = (await this.list()).filter((record) => record.owner_id === ownerId).length;
    if (owned >= max) throw quotaExceeded('corpora', max, 'quotas.corpora');
  }

  async list(): Promise<CorpusRecord[]> {
    this.assertOpen();
    const rows = (await this.records.query().select(['record']).toArray()) as Array<{ record: string }>;
    return rows
      .map((row) => JSON.parse(row.record) as CorpusRecord)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** Changes a record (status, queries run, counts) in one commit. */
  async update(corpusId: string, change: (record: CorpusRecord) => CorpusRecord): Promise<CorpusRecord> {
    this.assertOpen();
    return this.queue.run(async () => {
      const record = await this.getRecord(corpusId);
      if (!record) throw new AppError('NOT_FOUND', `corpus_id: no corpus ${corpusId}`);
      return this.writeRecord(change(record));
    });
  }

  /** Takes over an incomplete build (resume): the record is "building" again, owned by this store. */
  async claim(corpusId: string): Promise<CorpusRecord> {
    return this.update(corpusId, (record) => {
      if (record.status === 'building')
        throw new AppError('INVALID_INPUT', `corpus_id: ${corpusId} is being built now`);
      return { ...record, status: 'building', status_reason: null, owner: this.owner };
    });
  }

  private async table(name: string, create: () => ReturnType<typeof sourcesSchema>): Promise<Table> {
    let table = this.tables.get(name);
    if (!table) {
      table = (await this.db.tableNames()).includes(name)
        ? await this.db.openTable(name)
        : await this.db.createEmptyTable(name, create(), { mode: 'create', existOk: true });
      this.tables.set(name, table);
    }
    return table;
  }

  private async existingTable(name: string): Promise<Table | null> {
    if (this.tables.has(name)) return this.tables.get(name)!;
    if (!(await this.db.tableNames()).includes(name)) return null;
    const table = await this.db.openTable(name);
    this.tables.set(name, table);
    return table;
  }

  /** Adds sources with their chunks: the sources in one commit, then their chunks in one commit. */
  async addSources(corpusId: string, inputs: StoredSourceInput[]): Promise<StoredSource[]> {
    this.assertOpen();
    if (inputs.length === 0) return [];
    const record = await this.require(corpusId);
    return this.queue.run(async () => {
      const sources = await this.table(sourcesTable(corpusId), sourcesSchema);
      const chunks = await this.table(chunksTable(corpusId), () => chunksSchema(record.dimensions));
      const stored = inputs.map((input) => ({ ...input, source_id: newSourceId(), chunk_count: input.chunks.length }));
      await sources.add(stored.map(({ chunks: _chunks, ...source }) => source));
      const rows = stored.flatMap((source) =>
        source.chunks.map((chunk, index) => {
          if (chunk.vector.length !== record.dimensions) {
            throw new AppError(
              'INVALID_INPUT',
              `chunk vectors have ${chunk.vector.length} dimensions; corpus ${corpusId} has ${record.dimensions}`,
            );
          }
          return {
            source_id: source.source_id,
            chunk_index: index,
            text: chunk.text,
            start: chunk.start,
            end: chunk.end,
            tokens: chunk.tokens,
            url: source.url,
            title: source.title,
            vector: chunk.vector,
          };
        }),
      );
      if (rows.length > 0) await chunks.add(chunkRowsTable(rows, record.dimensions));
      this.ftsStale.add(corpusId);
      return stored.map(({ chunks: _chunks, ...source }) => source);
    });
  }

  async sources(corpusId: string, options: { withContent?: boolean } = {}): Promise<StoredSource[]> {
    this.assertOpen();
    const table = await this.existingTable(sourcesTable(corpusId));
    if (!table) return [];
    const columns = options.withContent ? SOURCE_COLUMNS : SOURCE_COLUMNS.filter((c) => c !== 'content');
    const rows = (await table.query().select(columns).toArray()) as StoredSource[];
    return rows.map((row) => ({
      ...row,
      content: row.content ?? '',
      word_count: Number(row.word_count),
      chunk_count: Number(row.chunk_count),
      relevance_score: Number(row.relevance_score),
    }));
  }

  async sourcesById(corpusId: string, ids: string[]): Promise<Map<string, StoredSource>> {
    const table = await this.existingTable(sourcesTable(corpusId));
    if (!table || ids.length === 0) return new Map();
    const rows = (await table
      .query()
      .where(`source_id IN (${[...new Set(ids)].map(sqlString).join(', ')})`)
      .select(SOURCE_COLUMNS)
      .toArray()) as StoredSource[];
    return new Map(
      rows.map((row) => [
        row.source_id,
        {
          ...row,
          word_count: Number(row.word_count),
          chunk_count: Number(row.chunk_count),
          relevance_score: Number(row.relevance_score),
        },
      ]),
    );
  }

  /** Each source's document vector: the unit mean of its chunk vectors. */
  async sourceVectors(corpusId: string): Promise<Map<string, Float32Array>> {
    const chunks = await this.existingTable(chunksTable(corpusId));
    if (!chunks) return new Map();
    const rows = (await chunks.query().select(['source_id', 'vector']).toArray()) as Array<{
      source_id: string;
      vector: ArrayLike<number> & { toArray?(): ArrayLike<number> };
    }>;
    const bySource = new Map<string, Float32Array[]>();
    for (const row of rows) {
      const vector = Float32Array.from(typeof row.vector.toArray === 'function' ? row.vector.toArray() : row.vector);
      bySource.set(row.source_id, [...(bySource.get(row.source_id) ?? []), vector]);
    }
    return new Map([...bySource].map(([id, vectors]) => [id, meanVector(vectors, vectors[0]!.length)]));
  }

  async counts(corpusId: string): Promise<{ sources: number; chunks: number }> {
    const sources = await this.existingTable(sourcesTable(corpusId));
    const chunks = await this.existingTable(chunksTable(corpusId));
    return { sources: sources ? await sources.countRows() : 0, chunks: chunks ? await chunks.countRows() : 0 };
  }

  /** Builds what a corpus's searches need: the full-text index (when stale), and the ANN index once large. */
  async maintain(corpusId: string): Promise<{ vectorIndex: string | null }> {
    this.assertOpen();
    return this.queue.run(async () => {
      const chunks = await this.existingTable(chunksTable(corpusId));
      if (!chunks) return { vectorIndex: null };
      const rows = await chunks.countRows();
      const indices = await chunks.listIndices();
      if (rows > 0 && (this.ftsStale.has(corpusId) || !indices.some((i) => i.columns.includes('text')))) {
        await createFtsIndex(chunks);
        this.ftsStale.delete(corpusId);
      }
      this.ftsReady.add(corpusId);
      let vector = indices.find((i) => i.columns.includes('vector'))?.indexType ?? null;
      if (!vector && rows >= (this.options.annThreshold ?? 20_000)) {
        await chunks.createIndex('vector', { config: Index.ivfFlat({ distanceType: 'cosine' }) });
        vector = 'IVF_FLAT';
        this.options.logger.info({ corpus: corpusId, rows }, 'corpus store: built the vector index');
      } else if (vector) {
        // Fold rows added since the index was built into it.
        await chunks.optimize();
      }
      return { vectorIndex: vector };
    });
  }

  /** Hybrid candidates from one corpus: vector and full-text legs fused by rank. */
  async search(corpusId: string, request: CorpusSearch): Promise<ChunkHit[]> {
    this.assertOpen();
    const chunks = await this.existingTable(chunksTable(corpusId));
    if (!chunks) return [];
    if (request.text && (!this.ftsReady.has(corpusId) || this.ftsStale.has(corpusId))) await this.maintain(corpusId);
    return searchCorpusChunks(chunks, request);
  }

  /** Removes a corpus: the record first (one commit), then its tables. */
  async delete(corpusId: string): Promise<{ sources: number; chunks: number }> {
    this.assertOpen();
    const record = await this.require(corpusId);
    if (record.status === 'building' && record.owner?.instance === this.owner.instance) {
      throw new AppError('INVALID_INPUT', `corpus_id: ${corpusId} is being built now; wait for it to finish`);
    }
    return this.queue.run(async () => {
      const counts = await this.counts(corpusId);
      await this.records.delete(`corpus_id = ${sqlString(corpusId)}`);
      for (const name of [sourcesTable(corpusId), chunksTable(corpusId)]) {
        this.tables.get(name)?.close();
        this.tables.delete(name);
        if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
      }
      this.ftsStale.delete(corpusId);
      this.ftsReady.delete(corpusId);
      return counts;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.idle();
    for (const table of this.tables.values()) table.close();
    this.records.close();
    this.db.close();
  }
}
