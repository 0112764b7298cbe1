import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { addId, listIds, removeId } from './record-index.js';
import { createStores, type Stores } from './stores.js';

function behavesAsAnIdList(open: () => Promise<Keyv>): void {
  it('adds once, keeps insertion order and removes', async () => {
    const records = await open();
    await addId(records, 'jobs', 'a');
    await addId(records, 'jobs', 'b');
    await addId(records, 'jobs', 'a');
    await addId(records, 'monitors', 'm');
    expect(await listIds(records, 'jobs')).toEqual(['a', 'b']);
    await removeId(records, 'jobs', 'a');
    await removeId(records, 'jobs', 'missing');
    expect(await listIds(records, 'jobs')).toEqual(['b']);
    expect(await listIds(records, 'monitors')).toEqual(['m']);
    expect(await listIds(records, 'empty')).toEqual([]);
  });

  it('loses no update when many run at once', async () => {
    const records = await open();
    const ids = Array.from({ length: 60 }, (_, i) => `id${i}`);
    await Promise.all(ids.map((id) => addId(records, 'busy', id)));
    expect(new Set(await listIds(records, 'busy'))).toEqual(new Set(ids));
    await Promise.all(ids.filter((_, i) => i % 2 === 0).map((id) => removeId(records, 'busy', id)));
    expect(new Set(await listIds(records, 'busy'))).toEqual(new Set(ids.filter((_, i) => i % 2 === 1)));
  });
}

describe('record index in memory', () => {
  behavesAsAnIdList(async () => new Keyv());
});

describe('record index on SQLite', () => {
  const opened: Stores[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'quarry-index-'));
  afterAll(async () => {
    for (const stores of opened) await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });
  behavesAsAnIdList(async () => {
    const stores = await createStores({ dataDir: join(dir, String(opened.length)), logger: silentLogger() });
    opened.push(stores);
    return stores.records;
  });
});

describe.runIf(hasRedisServer)('record index on Redis', () => {
  let redis: LocalRedis;
  const opened: Stores[] = [];
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    for (const stores of opened) await stores.close();
    await redis?.stop();
  });
  behavesAsAnIdList(async () => {
    // A fresh namespace per test would need another server; flush instead.
    const stores = await createStores({ dataDir: '/nonexistent', redisUrl: redis.url, logger: silentLogger() });
    opened.push(stores);
    await stores.records.clear();
    return stores.records;
  });

  it('is one sorted set shared by every process on the same Redis', async () => {
    const a = await createStores({ dataDir: '/nonexistent', redisUrl: redis.url, logger: silentLogger() });
    const b = await createStores({ dataDir: '/nonexistent', redisUrl: redis.url, logger: silentLogger() });
    opened.push(a, b);
    await Promise.all([addId(a.records, 'shared', 'from-a'), addId(b.records, 'shared', 'from-b')]);
    expect(new Set(await listIds(a.records, 'shared'))).toEqual(new Set(['from-a', 'from-b']));
  });
});
