/**
 * Start-up's check of every durable store this configuration uses: each is
 * brought to the current schema version (schema-registry.ts) before any
 * owner opens it, or start-up stops naming the store that is too new.
 * Read-only listing of the same (`storedVersions`) serves backups.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { silentLogger, type Logger } from '../../core/logger.js';
import { openRedis } from '../../core/stores/redis-client.js';
import { bringToCurrent, type StoreVersionReport } from './bring-to-current.js';
import { CORPORA_DIR, graphFiles, REDIS_PATTERNS, RECORDS_FILE, type DataLocations } from './data-layout.js';
import { directoryMarker } from './markers/directory-marker.js';
import type { VersionMarker } from './markers/marker.js';
import { redisMarker } from './markers/redis-marker.js';
import { sqliteMarker } from './markers/sqlite-marker.js';
import { STORE_SCHEMAS, type StoreSchema } from './schema-registry.js';
import { planUpgrade, type FoundVersion } from './upgrade-plan.js';

export interface StoredDataOptions extends DataLocations {
  redisUrl: string | null;
  logger: Logger;
}

/** The embedded stores in the data directory (LanceDB ones also used with Redis). */
export function embeddedStores(
  locations: DataLocations,
  withRecordsAndGraph: boolean,
): Array<{ schema: StoreSchema; marker: VersionMarker }> {
  const stores: Array<{ schema: StoreSchema; marker: VersionMarker }> = [];
  if (withRecordsAndGraph) {
    stores.push({ schema: STORE_SCHEMAS.records, marker: sqliteMarker(join(locations.dataDir, RECORDS_FILE)) });
    for (const file of graphFiles(locations.dataDir))
      stores.push({ schema: STORE_SCHEMAS.graph, marker: sqliteMarker(file) });
  }
  stores.push({
    schema: STORE_SCHEMAS.corpora,
    marker: directoryMarker(join(locations.dataDir, CORPORA_DIR), 'corpora'),
  });
  if (locations.pageIndexDir)
    stores.push({ schema: STORE_SCHEMAS['page-index'], marker: directoryMarker(locations.pageIndexDir, 'page-index') });
  return stores;
}

function redisStores(redis: Redis): Array<{ schema: StoreSchema; marker: VersionMarker }> {
  return (['records', 'graph', 'jobs'] as const).map((name) => ({
    schema: STORE_SCHEMAS[name],
    marker: redisMarker(redis, name, REDIS_PATTERNS[name] ?? []),
  }));
}

/** Brings every store to the current version, in order; the first one too new stops start-up. */
export async function bringStoredDataToCurrent(options: StoredDataOptions): Promise<StoreVersionReport[]> {
  const reports: StoreVersionReport[] = [];
  const redis = options.redisUrl ? await openRedis(options.redisUrl, 'quarry-schema') : null;
  try {
    // Refuse before writing anything: a store too new stops start-up with every store as it was.
    const all = [...(redis ? redisStores(redis) : []), ...embeddedStores(options, !redis)];
    for (const { schema, marker } of all) await planAll(schema, marker);
    for (const { schema, marker } of all) reports.push(await bringToCurrent(schema, marker, options.logger));
  } finally {
    redis?.disconnect();
  }
  return reports;
}

async function planAll(schema: StoreSchema, marker: VersionMarker): Promise<void> {
  planUpgrade(schema, marker.location, await marker.read());
}

/** Each embedded store's version as stored, changing nothing (unmarked data reads as version 1). */
export async function storedVersions(
  locations: DataLocations,
): Promise<Array<{ store: string; location: string; found: FoundVersion }>> {
  const found: Array<{ store: string; location: string; found: FoundVersion }> = [];
  for (const { schema, marker } of embeddedStores(locations, true)) {
    found.push({ store: schema.name, location: marker.location, found: await marker.read() });
    await marker.close();
  }
  return found;
}

/**
 * For a graph file opened after start-up (a principal's first graph): a new
 * file gets the current version; an existing one was checked at start-up and
 * is checked again here, since it may have been copied in since.
 */
export async function bringGraphFileToCurrent(path: string, logger: Logger = silentLogger()): Promise<void> {
  await bringToCurrent(STORE_SCHEMAS.graph, sqliteMarker(path), logger);
}
