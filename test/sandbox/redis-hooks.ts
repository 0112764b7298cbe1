/**
 * A throwaway redis-server for one describe block, with an admin connection for
 * reading what the instances wrote; started before its tests and stopped after.
 * Kept apart from local-redis.ts, which the benchmarks import without vitest.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startLocalRedis, type LocalRedis } from './local-redis.js';

export interface SuiteRedis {
  readonly url: string;
  readonly admin: Redis;
}

export function redisForThisSuite(): SuiteRedis {
  let server: LocalRedis | undefined;
  let admin: Redis | undefined;
  beforeAll(async () => {
    server = await startLocalRedis();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
  });
  return {
    get url() {
      if (!server) throw new Error('redis is started in beforeAll');
      return server.url;
    },
    get admin() {
      if (!admin) throw new Error('redis is started in beforeAll');
      return admin;
    },
  };
}
