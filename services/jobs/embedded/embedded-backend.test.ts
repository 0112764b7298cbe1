/** The job conformance suite on the embedded backend (SQLite under a data directory). */
import { describe } from 'vitest';
import { embeddedEnv } from '../fixtures/job-queue-envs.js';
import { jobQueueConformance } from '../fixtures/job-queue-conformance.js';

describe('job conformance: embedded queue', () => {
  jobQueueConformance(embeddedEnv, { concurrentInstances: false });
});
