/**
 * Backup and restore of the embedded stores (docs/upgrading.md): a folder
 * holding a consistent copy of each store and a manifest naming the release,
 * each store and its schema version.
 *
 * SQLite files are copied with VACUUM INTO, a snapshot taken in one read
 * transaction, consistent even while a server writes. LanceDB directories
 * (corpora, page index) are copied file by file, which is consistent only
 * when nothing writes to them: back up with the server stopped.
 *
 * Restore refuses a backup whose stores are newer than this build supports,
 * and a data directory that already holds stores unless forced (then those
 * stores are removed first; configuration and downloaded models stay).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import { packageVersion } from '../../core/paths.js';
import {
  CORPORA_DIR,
  graphFiles,
  GRAPH_FILE,
  RECORDS_FILE,
  SCOPED_GRAPHS_DIR,
  SECRET_FILES,
  type DataLocations,
} from './data-layout.js';
import { STORE_SCHEMAS, UNMARKED_VERSION, type StoreName } from './schema-registry.js';
import { SqliteConnection } from './sqlite-connection.js';
import { storedDataTooNew } from './upgrade-plan.js';
import { storedVersions } from './stored-data.js';

export const MANIFEST_FILE = 'quarry-backup.json';
const PAGE_INDEX_IN_BACKUP = 'page-index';

const manifestSchema = z.object({
  format: z.literal('quarry-backup'),
  format_version: z.literal(1),
  quarry_version: z.string(),
  created_at: z.string(),
  stores: z.array(
    z.object({
      store: z.enum(Object.keys(STORE_SCHEMAS) as [StoreName, ...StoreName[]]),
      /** Relative to the backup folder. */
      path: z.string(),
      schema_version: z.int().min(1),
    }),
  ),
  secrets: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

function isEmptyFolder(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Where a store's copy goes in the backup, and where it comes from. */
function backupPathOf(locations: DataLocations, store: StoreName, location: string): string {
  if (store === 'page-index') return PAGE_INDEX_IN_BACKUP;
  return relative(locations.dataDir, location);
}

export async function backupStores(locations: DataLocations, target: string): Promise<BackupManifest> {
  if (!isEmptyFolder(target))
    throw new AppError('INVALID_INPUT', `the backup target ${target} is not empty; name a new or empty folder`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const stores: BackupManifest['stores'] = [];
  for (const { store, location, found } of await storedVersions(locations)) {
    if (found === 'fresh') continue;
    const path = backupPathOf(locations, store as StoreName, location);
    const copy = join(target, path);
    mkdirSync(dirname(copy), { recursive: true, mode: 0o700 });
    if (store === 'records' || store === 'graph') await snapshotSqlite(location, copy);
    else cpSync(location, copy, { recursive: true });
    stores.push({ store: store as StoreName, path, schema_version: found === 'unmarked' ? UNMARKED_VERSION : found });
  }
  const secrets = SECRET_FILES.filter((name) => existsSync(join(locations.dataDir, name)));
  for (const name of secrets) cpSync(join(locations.dataDir, name), join(target, name));
  const manifest: BackupManifest = {
    format: 'quarry-backup',
    format_version: 1,
    quarry_version: packageVersion(),
    created_at: new Date().toISOString(),
    stores,
    secrets,
  };
  writeFileSync(join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** A consistent copy in one read transaction; the header (user_version, the schema marker) comes along. */
async function snapshotSqlite(from: string, to: string): Promise<void> {
  const db = await SqliteConnection.open(from, 'read');
  try {
    await db.run('VACUUM INTO ?', [to]);
  } finally {
    await db.close();
  }
}

export function readManifest(source: string): BackupManifest {
  const file = join(source, MANIFEST_FILE);
  if (!existsSync(file)) throw new AppError('INVALID_INPUT', `${source} is not a Quarry backup (no ${MANIFEST_FILE})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new AppError('INVALID_INPUT', `${file} is not JSON`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success)
    throw new AppError(
      'INVALID_INPUT',
      `${file} is not a backup manifest this release reads: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return result.data;
}

/** The stores a data directory holds now (what restore would replace). */
function storesPresent(locations: DataLocations): string[] {
  const paths = [
    join(locations.dataDir, RECORDS_FILE),
    ...graphFiles(locations.dataDir),
    join(locations.dataDir, SCOPED_GRAPHS_DIR),
    join(locations.dataDir, CORPORA_DIR),
    ...(locations.pageIndexDir ? [locations.pageIndexDir] : []),
    ...SECRET_FILES.map((name) => join(locations.dataDir, name)),
  ];
  return [...new Set(paths)].filter((path) => existsSync(path) && !(readdirIfFolder(path)?.length === 0));
}

function readdirIfFolder(path: string): string[] | null {
  try {
    return readdirSync(path);
  } catch {
    return null;
  }
}

function removeStores(locations: DataLocations): void {
  for (const file of [RECORDS_FILE, GRAPH_FILE])
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(locations.dataDir, file + suffix), { force: true });
  for (const dir of [SCOPED_GRAPHS_DIR, CORPORA_DIR, ...SECRET_FILES])
    rmSync(join(locations.dataDir, dir), { recursive: true, force: true });
  if (locations.pageIndexDir) rmSync(locations.pageIndexDir, { recursive: true, force: true });
}

export async function restoreStores(
  source: string,
  locations: DataLocations,
  options: { force: boolean },
): Promise<BackupManifest> {
  const manifest = readManifest(source);
  for (const entry of manifest.stores) {
    const schema = STORE_SCHEMAS[entry.store];
    if (entry.schema_version > schema.current)
      throw storedDataTooNew(schema, join(source, entry.path), entry.schema_version);
    if (!existsSync(join(source, entry.path)))
      throw new AppError('INVALID_INPUT', `the backup lists ${entry.path} but it is missing from ${source}`);
  }
  const present = storesPresent(locations);
  if (present.length > 0 && !options.force) {
    throw new AppError(
      'INVALID_INPUT',
      `the data directory already holds stored data (${present.join(', ')}); restore into an empty one, or pass --force to replace it`,
    );
  }
  removeStores(locations);
  mkdirSync(locations.dataDir, { recursive: true, mode: 0o700 });
  for (const entry of manifest.stores) {
    const to = entry.store === 'page-index' ? locations.pageIndexDir : join(locations.dataDir, entry.path);
    if (!to) continue; // the page index is off here: its copy stays in the backup
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    cpSync(join(source, entry.path), to, { recursive: true });
  }
  for (const name of manifest.secrets) cpSync(join(source, name), join(locations.dataDir, name));
  return manifest;
}
