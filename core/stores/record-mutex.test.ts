import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { recordMutex, type RecordMutex } from './record-mutex.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Read-modify-write of a counter with a pause in between: without exclusion, increments are lost. */
async function increments(
  mutexes: RecordMutex[],
  read: () => Promise<number>,
  write: (n: number) => Promise<void>,
  each: number,
): Promise<void> {
  await Promise.all(
    mutexes.flatMap((mutex) =>
      Array.from({ length: each }, () =>
        mutex.run('counter', async () => {
          const n = await read();
          await sleep(2);
          await write(n + 1);
        }),
      ),
    ),
  );
}

describe('record mutex', () => {
  it('serialises work on one key in this process', async () => {
    let counter = 0;
    await increments(
      [recordMutex(null)],
      async () => counter,
      async (n) => void (counter = n),
      20,
    );
    expect(counter).toBe(20);
  });

  describe.runIf(hasRedisServer)('on Redis', () => {
    let redis: LocalRedis;
    const clients: Redis[] = [];
    beforeAll(async () => {
      redis = await startLocalRedis();
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      await redis?.stop();
    });
    const client = () => {
      const made = new Redis(redis.url);
      clients.push(made);
      return made;
    };

    it('serialises work on one key across processes (two connections, two mutexes)', async () => {
      const store = client();
      await store.set('counter', '0');
      await increments(
        [recordMutex(client()), recordMutex(client())],
        async () => Number(await store.get('counter')),
        async (n) => void (await store.set('counter', String(n))),
        15,
      );
      expect(await store.get('counter')).toBe('30');
    });

    it('lets another holder in when a lock outlives its expiry, and never releases a lock it no longer holds', async () => {
      const connection = client();
      const short = recordMutex(connection, { ttlMs: 200 });
      // A holder that "died": it took the lock and never released it.
      await connection.set('quarry:lock:stale', 'someone-else', 'PX', 200);
      const started = Date.now();
      await short.run('stale', async () => undefined);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      const waiting = recordMutex(client(), { waitMs: 300 });
      await connection.set('quarry:lock:held', 'someone-else', 'PX', 10_000);
      await expect(waiting.run('held', async () => undefined)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect(await connection.get('quarry:lock:held')).toBe('someone-else');
    });
  });
});
