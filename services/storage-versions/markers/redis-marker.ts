/**
 * A store on Redis keeps its schema version under `quarry:schema:<store>`.
 * Without that key, any key of the store's own (found by SCAN) means data
 * written before markers existed.
 */
import type { Redis } from 'ioredis';
import { parseVersion, type FoundVersion, type VersionMarker } from './marker.js';

export const redisMarkerKey = (store: string) => `quarry:schema:${store}`;

async function anyKey(redis: Redis, pattern: string): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) return true;
    cursor = next;
  } while (cursor !== '0');
  return false;
}

export async function readRedisVersion(
  redis: Redis,
  store: string,
  patterns: readonly string[],
): Promise<FoundVersion> {
  const key = redisMarkerKey(store);
  const stored = await redis.get(key);
  if (stored !== null) return parseVersion(stored, `Redis key ${key}`);
  for (const pattern of patterns) if (await anyKey(redis, pattern)) return 'unmarked';
  return 'fresh';
}

export function redisMarker(redis: Redis, store: string, patterns: readonly string[]): VersionMarker {
  const key = redisMarkerKey(store);
  return {
    location: `Redis key ${key}`,
    read: () => readRedisVersion(redis, store, patterns),
    target: async () => ({ kind: 'redis', redis }),
    async write(version) {
      await redis.set(key, String(version));
    },
    async close() {},
  };
}
