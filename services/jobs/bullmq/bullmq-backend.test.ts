/** The job conformance suite on BullMQ, against a throwaway redis-server. */
import { afterAll, beforeAll, describe } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../../test/sandbox/local-redis.js';
import { bullEnv } from '../fixtures/job-queue-envs.js';
import { jobQueueConformance } from '../fixtures/job-queue-conformance.js';

describe.runIf(hasRedisServer)('job conformance: BullMQ', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  jobQueueConformance(() => bullEnv(redis.url), { concurrentInstances: true });
});
