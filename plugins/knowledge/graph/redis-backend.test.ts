import { afterAll, beforeAll, describe } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../../test/sandbox/local-redis.js';
import { graphBackendConformance } from './fixtures/conformance.js';
import { RedisGraphBackend } from './redis-backend.js';

describe.runIf(hasRedisServer)('Redis graph backend', () => {
  let redis: LocalRedis;
  let prefix = '';
  let run = 0;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  graphBackendConformance('Redis', {
    open() {
      run += 1;
      prefix = `test${run}:kg:`;
      return RedisGraphBackend.open(redis.url, prefix);
    },
    reopen: () => RedisGraphBackend.open(redis.url, prefix),
  });
});
