/**
 * What start-up does with one store, decided from the version its marker
 * holds: nothing, write the current version on a fresh store, run the steps
 * from an older version, or refuse data newer than this build knows.
 */
import { AppError } from '../../core/errors.js';
import type { FoundVersion } from './markers/marker.js';
import { UNMARKED_VERSION, type Migration, type StoreSchema } from './schema-registry.js';

export type { FoundVersion };

export type UpgradePlan =
  | { action: 'current'; version: number }
  | { action: 'stamp'; from: number | 'fresh'; version: number }
  | { action: 'migrate'; from: number; steps: Migration[] };

/** Stable in `details.reason` (start-up errors never reach the wire, so no catalogue code of their own). */
export const STORED_DATA_TOO_NEW = 'STORED_DATA_TOO_NEW';

/** Data newer than this build: start-up stops, nothing is written. */
export function storedDataTooNew(schema: StoreSchema, location: string, found: number): AppError {
  return new AppError(
    'UNAVAILABLE',
    `the ${schema.name} store at ${location} has schema version ${found}, but this release of Quarry supports up to version ${schema.current}. ` +
      'Nothing was changed. Run the newer release that wrote it, or restore a backup made for this release ' +
      '(quarry restore <backup> --force).',
    {
      details: {
        reason: STORED_DATA_TOO_NEW,
        store: schema.name,
        location,
        found_version: found,
        supported_version: schema.current,
      },
    },
  );
}

export function planUpgrade(schema: StoreSchema, location: string, found: FoundVersion): UpgradePlan {
  if (found === 'fresh') return { action: 'stamp', from: 'fresh', version: schema.current };
  const version = found === 'unmarked' ? UNMARKED_VERSION : found;
  if (!Number.isInteger(version) || version < 1)
    throw new AppError(
      'INTERNAL',
      `the ${schema.name} store at ${location} has an unreadable schema version (${String(found)})`,
    );
  if (version > schema.current) throw storedDataTooNew(schema, location, version);
  const steps: Migration[] = [];
  for (let at = version; at < schema.current; at++) {
    const step = schema.migrations.find((m) => m.from === at);
    if (!step || step.to !== at + 1)
      throw new AppError('INTERNAL', `no migration of the ${schema.name} store from version ${at} to ${at + 1}`);
    steps.push(step);
  }
  if (steps.length > 0) return { action: 'migrate', from: version, steps };
  // Unmarked data at the current version: only the marker is missing.
  return found === 'unmarked' ? { action: 'stamp', from: version, version } : { action: 'current', version };
}
