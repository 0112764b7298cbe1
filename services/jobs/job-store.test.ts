import { Keyv } from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { createEventBus } from '../../core/events.js';
import type { JobEvents } from './job-store.js';
import { silentLogger } from '../../core/logger.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../core/stores/fixtures/local-redis.js';
import { createStores, type Stores } from '../../core/stores/stores.js';
import { JobStore, type JobRecord } from './job-store.js';

function newStore() {
  const events = createEventBus<JobEvents>();
  const seen: JobRecord[] = [];
  events.on('job.updated', (job) => seen.push(job));
  return { store: new JobStore(new Keyv(), events, silentLogger()), seen };
}

describe('JobStore', () => {
  it('creates jobs with a prefixed random id and walks them through their states', async () => {
    const { store, seen } = newStore();
    const job = await store.create('search.web', { query: 'q' }, { idPrefix: 'req_' });
    expect(job.id).toMatch(/^req_[0-9a-f]{24}$/);
    expect((await store.create('x', null)).id).toMatch(/^job_[0-9a-f]{24}$/);
    expect(job).toMatchObject({ kind: 'search.web', status: 'queued', input: { query: 'q' } });

    await store.markRunning(job.id);
    await store.setProgress(job.id, { progress: 1, total: 2 });
    expect((await store.get(job.id))?.progress).toEqual({ progress: 1, total: 2 });
    const done = await store.complete(job.id, { answer: 42 });
    expect(done).toMatchObject({ status: 'completed', result: { answer: 42 } });
    expect(done.progress).toBeUndefined();
    expect(await store.get(job.id)).toEqual(done);
    expect(seen.filter((j) => j.id === job.id).map((j) => j.status)).toEqual(['queued', 'processing', 'processing', 'completed']);
  });

  it('keeps the first outcome and ignores late progress', async () => {
    const { store } = newStore();
    const job = await store.create('k', null);
    await store.markRunning(job.id);
    const progress = store.setProgress(job.id, { progress: 5 });
    await store.fail(job.id, { code: 'TIMEOUT', message: 'took too long' });
    await progress;
    await store.setProgress(job.id, { progress: 6 });
    await store.complete(job.id, 'late');
    const final = await store.get(job.id);
    expect(final).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT', message: 'took too long' } });
    expect(final?.progress).toBeUndefined();
    expect(final?.result).toBeUndefined();
  });

  it('lists unfinished jobs and jobs that still owe a webhook as pending', async () => {
    const { store } = newStore();
    const queued = await store.create('k', 1);
    const running = await store.create('k', 2);
    const finished = await store.create('k', 3);
    const owesHook = await store.create('k', 4, { webhookUrl: 'https://example.com/hook' });
    expect(owesHook.webhook).toEqual({ status: 'pending', attempts: 0 });
    await store.markRunning(running.id);
    await store.complete(finished.id, 'x');
    await store.complete(owesHook.id, 'y');
    expect((await store.pending()).map((j) => j.id)).toEqual([queued.id, running.id, owesHook.id]);

    const delivered = await store.recordWebhook(owesHook.id, { delivered: true, attempts: 2 });
    expect(delivered.webhook).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(delivered.webhook?.deliveredAt).toEqual(expect.any(String));
    expect((await store.pending()).map((j) => j.id)).toEqual([queued.id, running.id]);
  });

  it('answers null for an unknown id and NOT_FOUND when changing one', async () => {
    const { store } = newStore();
    expect(await store.get('job_000000000000000000000000')).toBeNull();
    const failure = await store.markRunning('job_000000000000000000000000').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('NOT_FOUND');
  });

  it('keeps the write when an event listener throws', async () => {
    const events = createEventBus<JobEvents>();
    events.on('job.updated', () => {
      throw new Error('listener bug');
    });
    const store = new JobStore(new Keyv(), events, silentLogger());
    const job = await store.create('k', null);
    expect(await store.get(job.id)).toEqual(job);
  });
});

describe.runIf(hasRedisServer)('JobStore on Redis', () => {
  let redis: LocalRedis;
  let stores: Stores;
  beforeAll(async () => {
    redis = await startLocalRedis();
    stores = await createStores({ dataDir: '/nonexistent', redisUrl: redis.url, logger: silentLogger() });
  });
  afterAll(async () => {
    await stores?.close();
    await redis?.stop();
  });

  it('keeps jobs and the pending index in Redis', async () => {
    const store = new JobStore(stores.records, createEventBus(), silentLogger());
    const a = await store.create('k', { n: 1 });
    const b = await store.create('k', { n: 2 });
    await store.complete(a.id, 'ok');
    const other = await createStores({ dataDir: '/nonexistent', redisUrl: redis.url, logger: silentLogger() });
    try {
      const seenElsewhere = new JobStore(other.records, createEventBus(), silentLogger());
      expect((await seenElsewhere.get(a.id))?.status).toBe('completed');
      expect((await seenElsewhere.pending()).map((job) => job.id)).toEqual([b.id]);
    } finally {
      await other.close();
    }
  });
});
