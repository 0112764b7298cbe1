/**
 * Brings one store to the version this build writes: reads its marker, runs
 * the planned migration steps in order (the marker is written after each,
 * so an interrupted upgrade resumes from the last finished step), or stops
 * with STORED_DATA_TOO_NEW before anything is written.
 */
import type { Logger } from '../../core/logger.js';
import type { VersionMarker } from './markers/marker.js';
import type { StoreSchema } from './schema-registry.js';
import { planUpgrade, type FoundVersion } from './upgrade-plan.js';

export interface StoreVersionReport {
  store: string;
  location: string;
  found: FoundVersion;
  version: number;
}

export async function bringToCurrent(
  schema: StoreSchema,
  marker: VersionMarker,
  logger: Logger,
): Promise<StoreVersionReport> {
  try {
    const found = await marker.read();
    const plan = planUpgrade(schema, marker.location, found);
    if (plan.action === 'stamp') {
      await marker.write(plan.version);
      if (plan.from !== 'fresh')
        logger.info(
          { store: schema.name, location: marker.location, version: plan.version },
          'stored data from before schema markers: version recorded, shape unchanged',
        );
    } else if (plan.action === 'migrate') {
      const target = await marker.target();
      for (const step of plan.steps) {
        logger.warn(
          { store: schema.name, location: marker.location, from: step.from, to: step.to },
          `migrating stored data: ${step.what}`,
        );
        await step.run(target);
        await marker.write(step.to);
      }
    }
    return { store: schema.name, location: marker.location, found, version: schema.current };
  } finally {
    await marker.close();
  }
}
