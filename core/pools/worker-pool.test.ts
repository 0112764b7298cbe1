import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { WorkerPool } from './worker-pool.js';
import { until } from '../../test/sandbox/until.js';

const worker = fileURLToPath(new URL('./fixtures/sleep-worker.mjs', import.meta.url));
let pool: WorkerPool<{ ms: number; value: string }, string> | null = null;

afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('WorkerPool', () => {
  it('runs tasks in worker threads', async () => {
    pool = new WorkerPool({ filename: worker, name: 'sleep', threads: 2, maxQueue: 4 });
    await expect(Promise.all([pool.run({ ms: 10, value: 'a' }), pool.run({ ms: 10, value: 'b' })])).resolves.toEqual([
      'a',
      'b',
    ]);
    expect(pool.stats().completed).toBe(2);
  });

  it('keeps a thread it started for a burst, where an idle timeout would retire it', async () => {
    // Only the pool's timers are faked: the threads and their messages run for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const burst = async (p: WorkerPool<{ ms: number; value: string }, string>) => {
        await Promise.all([
          p.run({ ms: 0, value: 'a' }, new AbortController().signal),
          p.run({ ms: 0, value: 'b' }, new AbortController().signal),
        ]);
        expect(p.stats().threads).toBe(2);
        vi.advanceTimersByTime(24 * 3_600_000);
        return p.stats().threads;
      };
      const retiring = new WorkerPool<{ ms: number; value: string }, string>({
        filename: worker,
        name: 'sleep',
        threads: 2,
        maxQueue: 4,
        idleTimeoutMs: 60_000,
      });
      try {
        expect(await burst(retiring)).toBe(1);
      } finally {
        await retiring.close();
      }
      pool = new WorkerPool({ filename: worker, name: 'sleep', threads: 2, maxQueue: 4 });
      expect(await burst(pool)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses work with OVERLOADED when the queue is full', async () => {
    pool = new WorkerPool({ filename: worker, name: 'sleep', threads: 1, maxQueue: 1 });
    const running = [pool.run({ ms: 300, value: '1' }), pool.run({ ms: 300, value: '2' })];
    // The thread has taken the first task; the second fills the queue.
    await until('the second task to wait in the queue', async () => pool!.stats().queued === 1, 5000, 5);
    const error = await pool.run({ ms: 1, value: '3' }).catch((e: AppError) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('OVERLOADED');
    expect((error as AppError).retryAfterSeconds).toBeGreaterThan(0);
    await Promise.all(running);
  });

  it('cancels a queued task with CANCELLED', async () => {
    pool = new WorkerPool({ filename: worker, name: 'sleep', threads: 1, maxQueue: 4 });
    const first = pool.run({ ms: 200, value: '1' });
    const controller = new AbortController();
    const second = pool.run({ ms: 10, value: '2' }, controller.signal).catch((e: AppError) => e);
    controller.abort();
    expect(((await second) as AppError).code).toBe('CANCELLED');
    await expect(first).resolves.toBe('1');
  });

  it("fails a task whose thread runs out of heap with the pool's error, and replaces the thread", async () => {
    const hog = fileURLToPath(new URL('./fixtures/hog-worker.mjs', import.meta.url));
    const hogs = new WorkerPool<{ hog: boolean; value: string }, string>({
      filename: hog,
      name: 'hog',
      threads: 1,
      maxQueue: 4,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
      outOfMemoryError: (cause) => new AppError('RESPONSE_TOO_LARGE', 'too large for the thread', { cause }),
    });
    try {
      const error = await hogs.run({ hog: true, value: '' }).catch((e: AppError) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('RESPONSE_TOO_LARGE');
      await expect(hogs.run({ hog: false, value: 'after' })).resolves.toBe('after');
    } finally {
      await hogs.close();
    }
  });

  it('stops a task that runs past its deadline with TIMEOUT, and the pool keeps working', async () => {
    const busy = fileURLToPath(new URL('./fixtures/busy-worker.mjs', import.meta.url));
    pool = new WorkerPool({ filename: busy, name: 'busy', threads: 1, maxQueue: 4 });
    const started = performance.now();
    const error = await pool
      .run({ ms: 20_000, value: 'never' }, undefined, { timeoutMs: 300 })
      .catch((e: AppError) => e);
    expect((error as AppError).code).toBe('TIMEOUT');
    // The thread was ended, not waited for.
    expect(performance.now() - started).toBeLessThan(10_000);
    await expect(pool.run({ ms: 1, value: 'next' })).resolves.toBe('next');
  });

  it('says clearly when the worker file is not built', () => {
    expect(() => new WorkerPool({ filename: '/nonexistent/x.worker.js', name: 'x', threads: 1, maxQueue: 1 })).toThrow(
      /npm run build/,
    );
  });
});
