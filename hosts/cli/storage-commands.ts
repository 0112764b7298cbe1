/**
 * quarry backup <dir> | restore <dir> [--force]: the embedded stores of the
 * configured data directory (services/storage-versions/backup.ts). Run with
 * the server stopped: the LanceDB folders are copied file by file.
 */
import { loadConfig } from '../../app/config.js';
import { AppError } from '../../core/errors.js';
import { pageIndexDir } from '../../services/semantic/semantic-services.js';
import { backupStores, restoreStores, type BackupManifest } from '../../services/storage-versions/backup.js';
import type { DataLocations } from '../../services/storage-versions/data-layout.js';

function locations(): DataLocations {
  const { config } = loadConfig();
  return { dataDir: config.dataDir, pageIndexDir: pageIndexDir(config) };
}

const summary = (manifest: BackupManifest) =>
  manifest.stores.map((s) => `${s.store} v${s.schema_version} (${s.path})`).join(', ') || 'no stores';

async function reporting(command: string, run: () => Promise<string>): Promise<number> {
  try {
    process.stdout.write(`${await run()}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    process.stderr.write(`quarry ${command}: ${error.message}\n`);
    return error.code === 'INVALID_INPUT' ? 2 : 1;
  }
}

export function runBackup(target: string): Promise<number> {
  return reporting('backup', async () => `backed up to ${target}: ${summary(await backupStores(locations(), target))}`);
}

export function runRestore(source: string, force: boolean): Promise<number> {
  return reporting('restore', async () => {
    const where = locations();
    return `restored into ${where.dataDir}: ${summary(await restoreStores(source, where, { force }))}`;
  });
}
