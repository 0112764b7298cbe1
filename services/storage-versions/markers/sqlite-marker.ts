/**
 * A SQLite file's schema version in its `user_version` pragma (a header
 * field SQLite keeps for applications; 0 until set). A file with tables but
 * version 0 was written before markers existed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteConnection } from '../sqlite-connection.js';
import type { FoundVersion, MigrationTarget, VersionMarker } from './marker.js';

export async function readSqliteVersion(path: string): Promise<FoundVersion> {
  if (!existsSync(path)) return 'fresh';
  const db = await SqliteConnection.open(path, 'read');
  try {
    const [row] = await db.all('PRAGMA user_version');
    const version = Number(row?.user_version ?? 0);
    if (version > 0) return version;
    const [tables] = await db.all('SELECT count(*) AS n FROM sqlite_master');
    return Number(tables?.n ?? 0) === 0 ? 'fresh' : 'unmarked';
  } finally {
    await db.close();
  }
}

export function sqliteMarker(path: string): VersionMarker {
  let writer: SqliteConnection | null = null;
  const open = async () => {
    if (!writer) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writer = await SqliteConnection.open(path, 'write');
    }
    return writer;
  };
  return {
    location: path,
    read: () => readSqliteVersion(path),
    async target(): Promise<MigrationTarget> {
      return { kind: 'sqlite', db: await open() };
    },
    async write(version) {
      // A pragma takes no bound parameters; the version is an integer checked by the plan.
      await (await open()).run(`PRAGMA user_version = ${Math.trunc(version)}`);
    },
    async close() {
      await writer?.close();
      writer = null;
    },
  };
}
