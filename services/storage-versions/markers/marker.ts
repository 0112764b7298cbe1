/**
 * Where a store keeps its schema version, and what a migration step is given
 * to change the store with. One kind per storage technology: SQLite files
 * (the `user_version` pragma), LanceDB directories (a small JSON file beside
 * the tables), Redis (a `quarry:schema:<store>` key).
 */
import type { Redis } from 'ioredis';
import type { SqliteConnection } from '../sqlite-connection.js';

/** A marker's reading: a version, no marker on existing data (a release before markers), or nothing stored yet. */
export type FoundVersion = number | 'unmarked' | 'fresh';

export type MigrationTarget =
  | { kind: 'sqlite'; db: SqliteConnection }
  | { kind: 'directory'; dir: string }
  | { kind: 'redis'; redis: Redis };

export interface VersionMarker {
  /** The file, directory or key, for messages. */
  readonly location: string;
  /** Reads without writing anything. */
  read(): Promise<FoundVersion>;
  /** The store opened for a migration step. */
  target(): Promise<MigrationTarget>;
  write(version: number): Promise<void>;
  close(): Promise<void>;
}

/** A marker's stored text as a version; anything else is an error naming where it was read. */
export function parseVersion(text: string, location: string): number {
  const version = Number(text.trim());
  if (!Number.isInteger(version) || version < 1)
    throw new Error(`the schema marker at ${location} holds "${text.slice(0, 40)}", not a version number`);
  return version;
}
