import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { backupStores, MANIFEST_FILE, readManifest, restoreStores } from './backup.js';
import type { DataLocations } from './data-layout.js';
import { readDirectoryVersion } from './markers/directory-marker.js';
import { readSqliteVersion } from './markers/sqlite-marker.js';
import { SqliteConnection } from './sqlite-connection.js';

const RELEASE = join(PACKAGE_ROOT, 'test/fixtures/releases/v0.1.0/embedded');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-backup-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data directory holding what v0.1.0 wrote (its own fixture). */
function releaseData(): DataLocations {
  const dataDir = tempDir();
  cpSync(RELEASE, dataDir, { recursive: true });
  return { dataDir, pageIndexDir: join(dataDir, 'page-index') };
}
const emptyData = (): DataLocations => {
  const dataDir = join(tempDir(), 'data');
  return { dataDir, pageIndexDir: join(dataDir, 'page-index') };
};

async function rows(path: string): Promise<unknown[]> {
  const db = await SqliteConnection.open(path, 'read');
  try {
    return await db.all('SELECT * FROM keyv ORDER BY key');
  } finally {
    await db.close();
  }
}

describe('backup and restore of the embedded stores', () => {
  it('backs up every store with its schema version, and restores it into an empty data directory as it was', async () => {
    const from = releaseData();
    const target = join(tempDir(), 'backup');
    const manifest = await backupStores(from, target);
    expect(manifest).toMatchObject({ format: 'quarry-backup', format_version: 1 });
    expect(manifest.stores.map((s) => [s.store, s.schema_version])).toEqual([
      ['records', 1],
      ['graph', 1],
      ['corpora', 1],
      ['page-index', 1],
    ]);
    expect(manifest.secrets).toEqual(['webhook-signing-secret']);
    expect(readManifest(target)).toEqual(manifest);

    const to = emptyData();
    await restoreStores(target, to, { force: false });
    expect(await rows(join(to.dataDir, 'quarry.sqlite'))).toEqual(await rows(join(from.dataDir, 'quarry.sqlite')));
    const graph = manifest.stores.find((s) => s.store === 'graph')!.path;
    expect(graph).toMatch(/^knowledge-graphs\/key-[0-9a-f]+\.sqlite$/);
    expect(await readSqliteVersion(join(to.dataDir, graph))).toBe('unmarked');
    expect(readDirectoryVersion(join(to.dataDir, 'corpora'))).toBe('unmarked');
    expect(existsSync(join(to.pageIndexDir!, 'chunks.lance'))).toBe(true);
    expect(readFileSync(join(to.dataDir, 'webhook-signing-secret'), 'utf8')).toBe(
      readFileSync(join(from.dataDir, 'webhook-signing-secret'), 'utf8'),
    );
  });

  it('keeps the schema version a store was stamped with (VACUUM INTO copies the header)', async () => {
    const from = releaseData();
    const db = await SqliteConnection.open(join(from.dataDir, 'quarry.sqlite'), 'write');
    await db.run('PRAGMA user_version = 1');
    await db.close();
    const target = join(tempDir(), 'backup');
    await backupStores(from, target);
    expect(await readSqliteVersion(join(target, 'quarry.sqlite'))).toBe(1);
  });

  it('refuses a data directory that holds stores unless forced, and a target folder that is not empty', async () => {
    const target = join(tempDir(), 'backup');
    await backupStores(releaseData(), target);
    const occupied = releaseData();
    writeFileSync(join(occupied.dataDir, 'quarry.config.json'), '{}');
    await expect(restoreStores(target, occupied, { force: false })).rejects.toThrow(
      /already holds stored data .*quarry\.sqlite.*--force/,
    );
    await restoreStores(target, occupied, { force: true });
    // Only stores are replaced: configuration stays.
    expect(readFileSync(join(occupied.dataDir, 'quarry.config.json'), 'utf8')).toBe('{}');
    await expect(backupStores(releaseData(), target)).rejects.toThrow(/not empty/);
  });

  it('refuses a backup with a store newer than this release, before touching the data directory', async () => {
    const target = join(tempDir(), 'backup');
    const manifest = await backupStores(releaseData(), target);
    const newer = {
      ...manifest,
      stores: manifest.stores.map((s) => (s.store === 'corpora' ? { ...s, schema_version: 2 } : s)),
    };
    writeFileSync(join(target, MANIFEST_FILE), JSON.stringify(newer));
    const occupied = releaseData();
    await expect(restoreStores(target, occupied, { force: true })).rejects.toMatchObject({
      details: { reason: 'STORED_DATA_TOO_NEW', store: 'corpora', found_version: 2, supported_version: 1 },
    });
    expect(existsSync(join(occupied.dataDir, 'quarry.sqlite'))).toBe(true);
  });

  it('refuses a folder that is not a backup, naming the manifest', async () => {
    await expect(restoreStores(tempDir(), emptyData(), { force: false })).rejects.toThrow(MANIFEST_FILE);
  });
});
