/**
 * A job service on either backend, as the app builds it (default lock and
 * stall intervals), for the jobs benchmark and its worker processes.
 */
import { silentLogger } from '../../core/logger.js';
import { createStores, type Stores } from '../../core/stores/stores.js';
import { BullJobBackend } from '../../services/jobs/bullmq/bullmq-backend.js';
import { EmbeddedJobBackend } from '../../services/jobs/embedded/embedded-backend.js';
import { EmbeddedJobStore } from '../../services/jobs/embedded/embedded-job-store.js';
import { JobService } from '../../services/jobs/job-service.js';
import type { JobBackendName } from '../../services/jobs/types.js';

/** The defaults of app/config.ts (jobs section). */
export const DEFAULT_LOCK_MS = 20_000;
export const DEFAULT_STALLED_INTERVAL_MS = 15_000;
const MAX_INTERRUPTIONS = 3;

export interface BenchJobs {
  jobs: JobService;
  close(): Promise<void>;
}

export async function openJobs(
  backend: JobBackendName,
  where: { dataDir: string; redisUrl: string },
  concurrency: number,
): Promise<BenchJobs> {
  const stores: Stores = await createStores({
    dataDir: where.dataDir,
    redisUrl: backend === 'bullmq' ? where.redisUrl : null,
    logger: silentLogger(),
  });
  const store =
    backend === 'bullmq'
      ? new BullJobBackend({
          redisUrl: where.redisUrl,
          redis: stores.redis!,
          lockMs: DEFAULT_LOCK_MS,
          stalledIntervalMs: DEFAULT_STALLED_INTERVAL_MS,
          maxStalledCount: MAX_INTERRUPTIONS + 2,
          keepFinishedSeconds: 3600,
          logger: silentLogger(),
        })
      : new EmbeddedJobBackend(new EmbeddedJobStore(stores.records, 3600_000), silentLogger());
  const jobs = new JobService(store, silentLogger(), { concurrency, maxInterruptions: MAX_INTERRUPTIONS });
  return {
    jobs,
    async close() {
      await jobs.close();
      await stores.close();
    },
  };
}
