/**
 * Index upkeep for the chunk table: the indexes it needs and LanceDB's
 * optimize (compaction, index refresh, removal of old versions). Callers run
 * these inside the index's write queue.
 */
import { Index, type Table } from '@lancedb/lancedb';
import type { Logger } from '../../core/logger.js';

export type AnnIndexKind = 'ivf_flat' | 'ivf_hnsw_sq';

/**
 * Old versions are kept this long before optimize deletes their files: long enough for a query
 * that started on an older version to finish, short enough that disk use tracks live data.
 */
const KEEP_VERSIONS_MS = 10 * 60_000;

export interface IndexState {
  fts: boolean;
  url: boolean;
  vector: string | null;
}

export async function indexState(table: Table): Promise<IndexState> {
  const indices = await table.listIndices();
  const on = (column: string) => indices.find((index) => index.columns.includes(column));
  return { fts: on('text')?.indexType === 'FTS', url: !!on('url'), vector: on('vector')?.indexType ?? null };
}

/** Full-text index on `text`: English stemming and stop words, lower-cased, accents folded. */
export async function createFtsIndex(table: Table): Promise<void> {
  await table.createIndex('text', {
    config: Index.fts({ stem: true, removeStopWords: true, lowercase: true, asciiFolding: true }),
    replace: true,
  });
}

/**
 * IVF_FLAT by default: at 100k × 100-d it builds in about a second and keeps exact distances
 * inside the probed partitions (recall ≈ 1), where IVF_HNSW_SQ took 45–57 s and IVF_PQ ~60 s to
 * build on 2 cores, for a millisecond or two less per query (docs/vector-index.md).
 */
function annConfig(kind: AnnIndexKind): Index {
  return kind === 'ivf_hnsw_sq' ? Index.hnswSq({ distanceType: 'cosine' }) : Index.ivfFlat({ distanceType: 'cosine' });
}

export interface MaintenanceOptions {
  annThreshold: number;
  annIndex: AnnIndexKind;
  logger: Logger;
}

/** Times each step it takes, in ms, so benchmarks and logs can tell them apart. */
async function timed(steps: Record<string, number>, name: string, step: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await step();
  steps[name] = performance.now() - started;
}

/** Optimizes, then creates the indexes that are missing. Returns the index state and step timings. */
export async function maintain(
  table: Table,
  options: MaintenanceOptions,
): Promise<{ state: IndexState; steps: Record<string, number> }> {
  const { logger } = options;
  const steps: Record<string, number> = {};
  // Compaction first: compacting fragments that an index covers makes LanceDB remap that index
  // (124 s after a fresh IVF_HNSW_SQ build at 100k rows, against 0.7 s before it). optimize also
  // folds rows written since an index was built into it (LanceDB searches such rows by brute
  // force meanwhile, so they are found either way, just more slowly).
  await timed(steps, 'optimize', async () => {
    const stats = await table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) });
    logger.debug({ compaction: stats.compaction, prune: stats.prune }, 'page index: optimized');
  });
  const state = await indexState(table);
  const rows = await table.countRows();
  if (rows > 0 && !state.fts) await timed(steps, 'ftsIndex', () => createFtsIndex(table));
  // A scalar index on url turns replace-a-page and purge-by-url from scans into lookups.
  if (rows > 0 && !state.url) await timed(steps, 'urlIndex', () => table.createIndex('url', { config: Index.btree() }));
  if (rows >= options.annThreshold && !state.vector) {
    await timed(steps, 'vectorIndex', () => table.createIndex('vector', { config: annConfig(options.annIndex) }));
    logger.info(
      { rows, kind: options.annIndex, ms: Math.round(steps.vectorIndex!) },
      'page index: built the vector index',
    );
  }
  return { state: await indexState(table), steps };
}
