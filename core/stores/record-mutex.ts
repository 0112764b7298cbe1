/**
 * Mutual exclusion for read-modify-write sequences on one record, across
 * every process that shares the records. Embedded (SQLite), a data
 * directory belongs to one process, so a lock in this process is enough.
 * On Redis it is a lock with expiry (SET NX PX, released only by the token
 * that took it), so a holder that dies blocks the others for at most ttlMs.
 * Critical sections must be short: a few record reads and writes.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { KeyedLock } from './keyed-lock.js';

export interface RecordMutex {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export interface RecordMutexOptions {
  /** How long a lock on Redis lasts when its holder never releases it; default 15 s. */
  ttlMs?: number;
  /** How long to wait for the lock before giving up with UNAVAILABLE; default 20 s. */
  waitMs?: number;
}

const RELEASE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export function recordMutex(redis: Redis | null, options: RecordMutexOptions = {}): RecordMutex {
  const local = new KeyedLock();
  if (!redis) return { run: (key, work) => local.run(key, work) };
  const ttlMs = options.ttlMs ?? 15_000;
  const waitMs = options.waitMs ?? 20_000;
  const lockKey = (key: string) => `quarry:lock:${key}`;

  async function acquire(key: string): Promise<string> {
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + waitMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      if ((await redis!.set(lockKey(key), token, 'PX', ttlMs, 'NX')) === 'OK') return token;
      if (Date.now() > deadline) throw new AppError('UNAVAILABLE', `the record ${key} stayed locked for ${waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    }
  }

  return {
    // This process's callers queue locally first, so they do not spin against each other on Redis.
    run: (key, work) =>
      local.run(key, async () => {
        const token = await acquire(key);
        try {
          return await work();
        } finally {
          await redis.eval(RELEASE_IF_OURS, 1, lockKey(key), token).catch(() => undefined);
        }
      }),
  };
}
