/**
 * Where each durable store lives: the files and folders of the data
 * directory, and the key patterns on Redis. The owners (core/stores,
 * plugins/knowledge/service, plugins/rag/corpora, services/semantic) open them by these
 * names; start-up versioning and backups find them here.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '../../core/stores/stores.js';
import type { StoreName } from './schema-registry.js';

export const RECORDS_FILE = SQLITE_FILE_NAME;
/** The installation's graph. */
export const GRAPH_FILE = 'knowledge-graph.sqlite';
/** One graph file per other principal. */
export const SCOPED_GRAPHS_DIR = 'knowledge-graphs';
export const CORPORA_DIR = 'corpora';
/** Secrets Quarry generates when none is configured (plain files, no schema). */
export const SECRET_FILES = ['api-key', 'webhook-signing-secret'] as const;

/** Keys each Redis store writes (besides its marker), by which unmarked data is recognised. */
export const REDIS_PATTERNS: Readonly<Partial<Record<StoreName, readonly string[]>>> = {
  records: ['quarry:records:*'],
  graph: ['quarry:kg:*'],
  jobs: ['quarry:jobs-*', 'quarry:job-*'],
};

export interface DataLocations {
  dataDir: string;
  /** The page index directory, or null when the page index is off. */
  pageIndexDir: string | null;
}

/** Every graph file present: the installation's and each principal's. */
export function graphFiles(dataDir: string): string[] {
  const scoped = join(dataDir, SCOPED_GRAPHS_DIR);
  const files = existsSync(scoped)
    ? readdirSync(scoped)
        .filter((name) => name.endsWith('.sqlite'))
        .map((name) => join(scoped, name))
    : [];
  return [join(dataDir, GRAPH_FILE), ...files.sort()];
}
