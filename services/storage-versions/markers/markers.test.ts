import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../core/logger.js';
import { SqliteConnection } from '../sqlite-connection.js';
import { bringToCurrent } from '../bring-to-current.js';
import { STORE_SCHEMAS } from '../schema-registry.js';
import { DIRECTORY_MARKER_FILE, directoryMarker } from './directory-marker.js';
import { readSqliteVersion, sqliteMarker } from './sqlite-marker.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-markers-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sqliteWithTable(path: string, userVersion = 0): Promise<void> {
  const db = await SqliteConnection.open(path, 'write');
  await db.run('CREATE TABLE keyv (key TEXT PRIMARY KEY, value TEXT)');
  await db.run("INSERT INTO keyv VALUES ('records:monitor:1', '{}')");
  if (userVersion) await db.run(`PRAGMA user_version = ${userVersion}`);
  await db.close();
}
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('SQLite schema marker (user_version)', () => {
  it('a missing or empty file is fresh and gets the current version', async () => {
    const path = join(tempDir(), 'quarry.sqlite');
    expect(await readSqliteVersion(path)).toBe('fresh');
    await bringToCurrent(STORE_SCHEMAS.records, sqliteMarker(path), silentLogger());
    expect(await readSqliteVersion(path)).toBe(1);
  });

  it('a file with tables and no version is v0.1.0 data: stamped, rows kept', async () => {
    const path = join(tempDir(), 'quarry.sqlite');
    await sqliteWithTable(path);
    expect(await readSqliteVersion(path)).toBe('unmarked');
    const report = await bringToCurrent(STORE_SCHEMAS.records, sqliteMarker(path), silentLogger());
    expect(report).toMatchObject({ store: 'records', found: 'unmarked', version: 1 });
    expect(await readSqliteVersion(path)).toBe(1);
    const db = await SqliteConnection.open(path, 'read');
    expect(await db.all('SELECT key FROM keyv')).toEqual([{ key: 'records:monitor:1' }]);
    await db.close();
  });

  it('a newer version is refused and the file is left byte for byte as it was', async () => {
    const path = join(tempDir(), 'quarry.sqlite');
    await sqliteWithTable(path, 7);
    const before = digest(path);
    await expect(bringToCurrent(STORE_SCHEMAS.records, sqliteMarker(path), silentLogger())).rejects.toMatchObject({
      details: { reason: 'STORED_DATA_TOO_NEW' },
    });
    expect(digest(path)).toBe(before);
  });
});

describe('LanceDB directory schema marker', () => {
  it('a missing directory is fresh; one with tables and no marker is v0.1.0; a newer marker is refused untouched', async () => {
    const dir = join(tempDir(), 'corpora');
    expect(await directoryMarker(dir, 'corpora').read()).toBe('fresh');
    mkdirSync(join(dir, 'corpora.lance'), { recursive: true });
    expect(await directoryMarker(dir, 'corpora').read()).toBe('unmarked');
    await bringToCurrent(STORE_SCHEMAS.corpora, directoryMarker(dir, 'corpora'), silentLogger());
    expect(JSON.parse(readFileSync(join(dir, DIRECTORY_MARKER_FILE), 'utf8'))).toEqual({
      store: 'corpora',
      version: 1,
    });
    writeFileSync(join(dir, DIRECTORY_MARKER_FILE), JSON.stringify({ store: 'corpora', version: 2 }));
    await expect(
      bringToCurrent(STORE_SCHEMAS.corpora, directoryMarker(dir, 'corpora'), silentLogger()),
    ).rejects.toMatchObject({
      details: { reason: 'STORED_DATA_TOO_NEW', store: 'corpora', found_version: 2, supported_version: 1 },
    });
    expect(JSON.parse(readFileSync(join(dir, DIRECTORY_MARKER_FILE), 'utf8')).version).toBe(2);
  });

  it('a marker that is not a version is an error naming the file, not a guess', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DIRECTORY_MARKER_FILE), '{"version":"two"}');
    await expect(directoryMarker(dir, 'page-index').read()).rejects.toThrow(DIRECTORY_MARKER_FILE);
  });
});
