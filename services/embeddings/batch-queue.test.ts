import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { BatchQueue } from './batch-queue.js';

/** A fake model: each text becomes [its length], and every batch is recorded. */
function fakeQueue(options: { batchSize: number; maxQueuedTexts?: number; concurrency?: number }) {
  const batches: string[][] = [];
  const queue = new BatchQueue(
    async (texts) => {
      batches.push(texts);
      await new Promise((r) => setTimeout(r, 5));
      return texts.map((text) => Float32Array.of(text.length));
    },
    { maxQueuedTexts: 1000, concurrency: 1, ...options },
  );
  return { queue, batches };
}

describe('BatchQueue', () => {
  it('splits a big call into batches and returns vectors in order', async () => {
    const { queue, batches } = fakeQueue({ batchSize: 3 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g'];
    const vectors = await queue.submit(texts);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5, 6, 1]);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
  });

  it('coalesces small calls made together into shared batches', async () => {
    const { queue, batches } = fakeQueue({ batchSize: 8 });
    const results = await Promise.all(['x', 'yy', 'zzz', 'wwww'].map((text) => queue.submit([text, text + text])));
    expect(results.map((pair) => pair.map((v) => v[0]))).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
      [4, 8],
    ]);
    expect(batches).toHaveLength(1);
  });

  it('refuses with OVERLOADED beyond maxQueuedTexts, but admits any call into an empty queue', async () => {
    const { queue } = fakeQueue({ batchSize: 2, maxQueuedTexts: 4 });
    const big = queue.submit(Array.from({ length: 20 }, () => 't'));
    const refused = (await queue.submit(['late']).catch((e: unknown) => e)) as AppError;
    expect(refused.code).toBe('OVERLOADED');
    await expect(big).resolves.toHaveLength(20);
  });

  it('drops cancelled work that has not started', async () => {
    const { queue, batches } = fakeQueue({ batchSize: 1 });
    const controller = new AbortController();
    const first = queue.submit(['first']);
    const second = queue.submit(['second'], controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await second) as AppError).code).toBe('CANCELLED');
    await first;
    expect(batches.flat()).toEqual(['first']);
  });

  it('fails every caller of a failed batch', async () => {
    const queue = new BatchQueue(async () => Promise.reject(new AppError('INTERNAL', 'boom')), {
      batchSize: 4,
      maxQueuedTexts: 10,
      concurrency: 1,
    });
    const results = await Promise.allSettled([queue.submit(['a']), queue.submit(['b'])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
