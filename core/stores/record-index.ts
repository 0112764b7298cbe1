/**
 * A list of ids per collection ("jobs:pending", "monitors") kept in the
 * records store, because keyv has no portable way to list keys.
 *
 * On Redis the list is a sorted set (ZADD NX scored by the time added, in
 * ms; ties sort by id), so adds and removes are atomic across processes.
 * On the other stores it is a JSON array under one key; updates are
 * serialised per collection within this process, which is enough because a
 * SQLite data dir belongs to one process.
 */
import KeyvRedis from '@keyv/redis';
import type { Keyv } from 'keyv';
import { KeyedLock } from './keyed-lock.js';

/** The few sorted-set commands we need, as node-redis exposes them. */
interface SortedSetClient {
  zAdd(key: string, member: { score: number; value: string }, options: { condition: 'NX' }): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
  zRange(key: string, start: number, stop: number): Promise<string[]>;
}

const locks = new WeakMap<Keyv, KeyedLock>();

function indexKey(collection: string): string {
  return `index:${collection}`;
}

function redisOf(records: Keyv): KeyvRedis<unknown> | null {
  return records.store instanceof KeyvRedis ? (records.store as KeyvRedis<unknown>) : null;
}

async function sortedSet(
  redis: KeyvRedis<unknown>,
  collection: string,
): Promise<{ client: SortedSetClient; key: string }> {
  const client = (await redis.getClient()) as unknown as SortedSetClient;
  return { client, key: redis.createKeyPrefix(indexKey(collection), redis.namespace) };
}

function lockFor(records: Keyv): KeyedLock {
  let lock = locks.get(records);
  if (!lock) {
    lock = new KeyedLock();
    locks.set(records, lock);
  }
  return lock;
}

async function readList(records: Keyv, collection: string): Promise<string[]> {
  const ids = (await records.get(indexKey(collection))) as unknown;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Ids in the order they were first added (on Redis: to the millisecond). */
export async function listIds(records: Keyv, collection: string): Promise<string[]> {
  const redis = redisOf(records);
  if (redis) {
    const { client, key } = await sortedSet(redis, collection);
    return client.zRange(key, 0, -1);
  }
  // Wait for queued updates of this process so a caller reads its own writes.
  return lockFor(records).run(collection, () => readList(records, collection));
}

/** Adds an id once; adding it again keeps its place. */
export async function addId(records: Keyv, collection: string, id: string): Promise<void> {
  const redis = redisOf(records);
  if (redis) {
    const { client, key } = await sortedSet(redis, collection);
    await client.zAdd(key, { score: Date.now(), value: id }, { condition: 'NX' });
    return;
  }
  await lockFor(records).run(collection, async () => {
    const ids = await readList(records, collection);
    if (!ids.includes(id)) await records.set(indexKey(collection), [...ids, id]);
  });
}

export async function removeId(records: Keyv, collection: string, id: string): Promise<void> {
  const redis = redisOf(records);
  if (redis) {
    const { client, key } = await sortedSet(redis, collection);
    await client.zRem(key, id);
    return;
  }
  await lockFor(records).run(collection, async () => {
    const ids = await readList(records, collection);
    if (ids.includes(id))
      await records.set(
        indexKey(collection),
        ids.filter((other) => other !== id),
      );
  });
}
