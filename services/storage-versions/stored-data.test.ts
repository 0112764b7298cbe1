import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { bringStoredDataToCurrent } from './stored-data.js';

describe.runIf(hasRedisServer)('stored data on Redis', () => {
  let redis: LocalRedis;
  let client: Redis;
  let dataDir: string;
  beforeAll(async () => {
    redis = await startLocalRedis();
    client = new Redis(redis.url);
    dataDir = mkdtempSync(join(tmpdir(), 'quarry-stored-data-'));
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const bring = () =>
    bringStoredDataToCurrent({ dataDir, pageIndexDir: null, redisUrl: redis.url, logger: silentLogger() });

  it('marks a fresh Redis, and reads keys without a marker as v0.1.0 data', async () => {
    await client.set('quarry:kg:ent:ent_1', '{}');
    const reports = await bring();
    expect(reports.map((r) => [r.store, r.found, r.version])).toEqual([
      ['records', 'fresh', 1],
      ['graph', 'unmarked', 1],
      ['jobs', 'fresh', 1],
      ['corpora', 'fresh', 1],
    ]);
    expect(await client.mget('quarry:schema:records', 'quarry:schema:graph', 'quarry:schema:jobs')).toEqual([
      '1',
      '1',
      '1',
    ]);
  });

  it('refuses a Redis store marked newer, and writes no other marker', async () => {
    await client.flushall();
    await client.set('quarry:schema:jobs', '3');
    await expect(bring()).rejects.toMatchObject({
      details: {
        reason: 'STORED_DATA_TOO_NEW',
        store: 'jobs',
        found_version: 3,
        supported_version: 1,
        location: 'Redis key quarry:schema:jobs',
      },
    });
    expect(await client.keys('quarry:*')).toEqual(['quarry:schema:jobs']);
  });
});
