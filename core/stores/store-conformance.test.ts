import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { silentLogger } from '../logger.js';
import { storeConformance, type StoreEnv } from './fixtures/store-conformance.js';
import { createStores, type Stores } from './stores.js';

function env(name: Stores['backend'], redisUrl: () => string | null): StoreEnv {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-store-conformance-'));
  const opened: Stores[] = [];
  return {
    name,
    sharedBetweenInstances: name === 'redis',
    async open() {
      const stores = await createStores({ dataDir, redisUrl: redisUrl(), logger: silentLogger() });
      opened.push(stores);
      return stores;
    },
    async close() {
      for (const stores of opened.splice(0)) await stores.close().catch(() => undefined);
      if (name === 'redis') {
        const cleanup = await createStores({ dataDir, redisUrl: redisUrl(), logger: silentLogger() });
        await cleanup.redis?.flushall();
        await cleanup.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('store conformance: embedded SQLite', () => {
  storeConformance(async () => env('memory+sqlite', () => null));
});

// global-requirements fails the run when redis-server is missing, so this never skips silently.
describe.runIf(hasRedisServer)('store conformance: Redis', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  storeConformance(async () => env('redis', () => redis.url));
});
