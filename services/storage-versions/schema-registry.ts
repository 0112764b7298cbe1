/**
 * The one list of durable stores and their schema versions. Each store
 * declares the version this build writes and the ordered steps that bring
 * older data forward; start-up (stored-data.ts) reads each store's marker and
 * walks it to `current`, or refuses data newer than `current`.
 *
 * Version 1 is the shape release v0.1.0 wrote. That release wrote no markers,
 * so a store that holds data but no marker is version 1. The shapes have not
 * changed since (compare `git diff v0.1.0 -- core/stores services/jobs
 * plugins/knowledge/graph plugins/rag/corpora services/vectors services/webhooks
 * plugins/monitor`), so every store is at version 1 and bringing v0.1.0 data
 * forward only writes the marker. Records of a new kind that older data lacks
 * (the jobs' last completion per owner and kind) need no step: absent reads as
 * none, and an older build leaves them alone.
 *
 * A later change to a stored shape raises that store's `current`, appends a
 * migration from the previous version, and adds a fixture of the release
 * before it under test/fixtures/releases/ (docs/upgrading.md).
 */
import type { MigrationTarget } from './markers/marker.js';

export type StoreName = 'records' | 'graph' | 'jobs' | 'corpora' | 'page-index';

export interface Migration {
  from: number;
  to: number;
  /** What the step changes, for the log. */
  what: string;
  run(target: MigrationTarget): Promise<void>;
}

export interface StoreSchema {
  name: StoreName;
  /** What the store holds, for messages and docs. */
  holds: string;
  /** The version this build reads and writes. */
  current: number;
  /** Steps from older versions, each from → from + 1. */
  migrations: readonly Migration[];
}

/** The version of data written by a release before markers existed (v0.1.0). */
export const UNMARKED_VERSION = 1;

export const STORE_SCHEMAS: Readonly<Record<StoreName, StoreSchema>> = {
  records: {
    name: 'records',
    holds: 'durable records: monitors and their results, embedded jobs and webhook delivery logs',
    current: 1,
    migrations: [],
  },
  graph: { name: 'graph', holds: 'the knowledge graph (entities, relations, aliases)', current: 1, migrations: [] },
  jobs: {
    name: 'jobs',
    holds: 'the BullMQ job queues on Redis (jobs, webhook deliveries, monitor schedules)',
    current: 1,
    migrations: [],
  },
  corpora: { name: 'corpora', holds: 'RAG corpora (LanceDB)', current: 1, migrations: [] },
  'page-index': { name: 'page-index', holds: 'the page index (LanceDB)', current: 1, migrations: [] },
};
