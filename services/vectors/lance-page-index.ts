/**
 * The PageIndex on LanceDB: one table of chunks under `dir`. Writes go
 * through a serial queue and each is a single LanceDB commit (a new manifest
 * version written to disk), so once addPage resolves the page survives a
 * crash of this process, and a reader never sees half of a replaced page.
 *
 * Several processes may share one directory (several Quarry instances):
 * LanceDB commits each write as a new version with an atomic
 * rename-if-absent and resolves concurrent commits itself (an append, a
 * merge and a compaction from different processes all land); readers look
 * for other processes' versions at most readConsistencySeconds apart; two
 * processes creating the table at once settle on one.
 */
import { mkdirSync, renameSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type Connection, type Table } from '@lancedb/lancedb';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { purgeFilter, sqlString, urlListPredicate } from './filters.js';
import { indexState, maintain, createFtsIndex, type AnnIndexKind, type IndexState } from './maintenance.js';
import { searchChunks } from './page-search.js';
import { applyRetention } from './retention.js';
import { chunkSchema, incompatibility, pageRows, TABLE_NAME, type ChunkRow } from './schema.js';
import { SerialQueue } from './serial-queue.js';
import { directoryLock } from './directory-lock.js';
import type { IndexedPage, PageIndex, PageIndexStats } from './types.js';

export interface PageIndexOptions {
  dir: string;
  dimensions: number;
  /** Pages fetched longer ago are removed by applyRetention (0: kept forever). */
  retentionDays: number;
  /** applyRetention removes the oldest pages beyond this many chunks (0: no bound). */
  maxChunks: number;
  logger: Logger;
  /** Rows from which an ANN index is built; below it search is exact. Default 50,000. */
  annThreshold?: number;
  annIndex?: AnnIndexKind;
  /** Writes between automatic maintenance runs (index refresh, compaction). Default 100. */
  maintenanceEvery?: number;
  /** Rows written that also trigger maintenance, however few the writes. Default 10,000. */
  maintenanceRows?: number;
  /** How stale a read may be with respect to other processes' writes; default 1 s (0: every read checks). */
  readConsistencySeconds?: number;
}

/** Pages per commit in addPages: bounds the size of one merge and of its url IN (...) list. */
const PAGES_PER_COMMIT = 500;
/** Opening while another process creates the table: tries, and the wait between them. */
const OPEN_TRIES = 20;
const OPEN_RETRY_MS = 100;

/** Moves an incompatible table out of the way (kept, not deleted: its text may still be wanted). */
async function retireTable(db: Connection, table: Table, dir: string, reason: string, logger: Logger): Promise<void> {
  table.close();
  const from = join(dir, `${TABLE_NAME}.lance`);
  if (existsSync(from)) {
    const to = join(dir, 'retired', `${TABLE_NAME}-${new Date().toISOString().replace(/[:.]/g, '-')}.lance`);
    mkdirSync(join(dir, 'retired'), { recursive: true });
    renameSync(from, to);
    logger.warn(
      { reason, movedTo: to },
      'page index: the stored table does not fit (embedding model changed?); moved it aside and starting an ' +
        'empty index',
    );
  } else {
    await db.dropTable(TABLE_NAME);
    logger.warn(
      { reason },
      'page index: the stored table does not fit (embedding model changed?); dropped it and starting an empty index',
    );
  }
}

/**
 * Opens or creates the table. Another process may be creating it at the same
 * moment: then our create fails (it exists) or our open fails (its first
 * version is not written yet), and a moment later the open succeeds.
 */
async function openTable(db: Connection, options: PageIndexOptions): Promise<Table> {
  for (let tried = 1; ; tried++) {
    try {
      return await openOrCreateTable(db, options);
    } catch (error) {
      if (tried >= OPEN_TRIES) throw error;
      options.logger.debug(
        { err: error, tried },
        'page index: the table is being created by another process; trying again',
      );
      await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS * Math.min(tried, 5)));
    }
  }
}

async function openOrCreateTable(db: Connection, options: PageIndexOptions): Promise<Table> {
  const schema = chunkSchema(options.dimensions);
  if ((await db.tableNames()).includes(TABLE_NAME)) {
    const table = await db.openTable(TABLE_NAME);
    const reason = incompatibility(await table.schema(), options.dimensions);
    if (!reason) return table;
    await retireTable(db, table, options.dir, reason, options.logger);
  }
  return db.createEmptyTable(TABLE_NAME, schema, { mode: 'create', existOk: false });
}

export async function openPageIndex(options: PageIndexOptions): Promise<PageIndex> {
  const { dir, dimensions, logger } = options;
  if (!Number.isInteger(dimensions) || dimensions < 1)
    throw new AppError('INVALID_INPUT', `bad vector dimensions: ${dimensions}`);
  mkdirSync(dir, { recursive: true });
  const db = await connect(dir, { readConsistencyInterval: options.readConsistencySeconds ?? 1 });
  const table = await openTable(db, options);
  const queue = new SerialQueue();
  // In-process writes are serialised by the queue; across processes sharing dir, by this lock.
  const locked = directoryLock(dir, { logger });
  let state: IndexState = await indexState(table);
  let closed = false;
  let writes = 0;
  let rowsWritten = 0;
  logger.info({ dir, dimensions, chunks: await table.countRows(), vectorIndex: state.vector }, 'page index: open');

  const maintenanceOptions = {
    annThreshold: options.annThreshold ?? 50_000,
    annIndex: options.annIndex ?? 'ivf_flat',
    logger,
  } as const;
  const runMaintenance = async () => {
    writes = 0;
    rowsWritten = 0;
    const result = await maintain(table, maintenanceOptions);
    state = result.state;
    return result.steps;
  };

  /** Queues a write; maintenance follows in the queue once enough writes have piled up. */
  const write = async <T>(task: () => Promise<T>, rows = 0): Promise<T> => {
    if (closed) throw new AppError('UNAVAILABLE', 'the page index is closed');
    const result = await queue.run(() => locked(task));
    writes++;
    rowsWritten += rows;
    if (
      !closed &&
      (writes >= (options.maintenanceEvery ?? 100) || rowsWritten >= (options.maintenanceRows ?? 10_000))
    ) {
      writes = 0;
      rowsWritten = 0;
      // Not awaited: the caller's write is already durable; a failed upkeep run only costs speed.
      queue
        .run(() => locked(runMaintenance))
        .catch((error: unknown) => logger.warn({ err: error }, 'page index: maintenance failed'));
    }
    return result;
  };

  /**
   * Replaces the chunks of these pages in one commit: rows matching (url, chunk_index) are
   * updated, new ones inserted, and leftover chunks of the same URLs deleted — so a reader or a
   * crash sees the old page or the new one, never neither.
   */
  const replacePages = async (pages: IndexedPage[]) => {
    const latest = new Map(pages.map((page) => [page.url, page]));
    const now = Date.now();
    const rows: ChunkRow[] = [...latest.values()].flatMap((page) =>
      pageRows(page, dimensions, page.fetchedAt?.getTime() ?? now),
    );
    const urls = [...latest.keys()];
    if (!rows.length) {
      await table.delete(urlListPredicate(urls));
      return;
    }
    const sameUrls = urls.length === 1 ? `url = ${sqlString(urls[0]!)}` : urlListPredicate(urls);
    await table
      .mergeInsert(['url', 'chunk_index'])
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .whenNotMatchedBySourceDelete({ where: sameUrls })
      .execute(rows as unknown as Array<Record<string, unknown>>);
  };

  const ensureFts = async () => {
    if (state.fts) return;
    await queue.run(async () => {
      if ((await indexState(table)).fts) return;
      try {
        await locked(() => createFtsIndex(table));
      } catch (error) {
        // Another process sharing the directory may have built it at the same moment.
        if (!(await indexState(table)).fts) throw error;
      }
      state = { ...state, fts: true };
    });
  };

  return {
    addPage: (page) => write(() => replacePages([page]), page.chunks.length),

    async addPages(pages) {
      for (let i = 0; i < pages.length; i += PAGES_PER_COMMIT) {
        const batch = pages.slice(i, i + PAGES_PER_COMMIT);
        await write(
          () => replacePages(batch),
          batch.reduce((sum, page) => sum + page.chunks.length, 0),
        );
      }
    },

    async search(query) {
      if (closed) throw new AppError('UNAVAILABLE', 'the page index is closed');
      return searchChunks({ table, dimensions, ensureFts }, query);
    },

    async purge(request) {
      const where = purgeFilter(request);
      return write(async () => (await table.delete(where)).numDeletedRows);
    },

    applyRetention: () => write(() => applyRetention(table, options.retentionDays, options.maxChunks)),

    async stats(): Promise<PageIndexStats> {
      if (closed) throw new AppError('UNAVAILABLE', 'the page index is closed');
      const urls = await table.query().select(['url']).toArray();
      const stats = await table.stats();
      return {
        chunks: stats.numRows,
        pages: new Set(urls.map((row: { url: string }) => row.url)).size,
        dimensions,
        path: join(dir, `${TABLE_NAME}.lance`),
        bytes: stats.totalBytes,
        vectorIndex: state.vector,
      };
    },

    async optimize() {
      if (closed) throw new AppError('UNAVAILABLE', 'the page index is closed');
      const started = performance.now();
      const steps = await queue.run(() => locked(runMaintenance));
      return { ms: performance.now() - started, chunks: await table.countRows(), vectorIndex: state.vector, steps };
    },

    async close() {
      if (closed) return;
      closed = true;
      await queue.idle();
      table.close();
      db.close();
    },
  };
}
export type { AnnIndexKind } from './maintenance.js';
