import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../core/errors.js';
import { createEventBus } from '../../core/events.js';
import { silentLogger } from '../../core/logger.js';
import { createStores, type Stores } from '../../core/stores/stores.js';
import { verifyWebhookSignature, WebhookSender, type WebhookRequest } from '../webhooks/webhook-sender.js';
import { JobRunner, type JobHandler } from './job-runner.js';
import { JobStore } from './job-store.js';

const SECRET = 'runner-secret';
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A webhook sender whose transport records requests and answers with the given status. */
function fakeWebhooks(status = 200) {
  const sent: WebhookRequest[] = [];
  const sender = new WebhookSender(
    async (request) => {
      sent.push(request);
      return { status };
    },
    { secret: SECRET, maxAttempts: 2, backoffMs: [5] },
    silentLogger(),
  );
  return { sender, sent };
}

function runnerOn(records: Keyv, handlers: Record<string, JobHandler>, options: { concurrency?: number; webhookStatus?: number } = {}) {
  const store = new JobStore(records, createEventBus(), silentLogger());
  const webhooks = fakeWebhooks(options.webhookStatus);
  const runner = new JobRunner(store, new Map(Object.entries(handlers)), webhooks.sender, silentLogger(), {
    concurrency: options.concurrency ?? 2,
    graceMs: 1000,
    progressIntervalMs: 0,
  });
  cleanups.push(() => runner.close());
  return { store, runner, sent: webhooks.sent };
}

async function finished(store: JobStore, id: string) {
  return vi.waitFor(
    async () => {
      const job = await store.get(id);
      if (job?.status !== 'completed' && job?.status !== 'failed') throw new Error(`job is ${job?.status}`);
      return job;
    },
    { timeout: 5000, interval: 10 },
  );
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('JobRunner', () => {
  it('persists a submitted job, runs it in the background and records its result and progress', async () => {
    const gate = deferred();
    const { store, runner } = runnerOn(new Keyv(), {
      echo: async (input, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: 'half way' });
        await gate.promise;
        return { echoed: input };
      },
    });
    const job = await runner.submit('echo', { x: 1 }, { idPrefix: 'req_' });
    expect(job.status).toBe('queued');
    expect(await store.get(job.id)).not.toBeNull();
    await vi.waitFor(async () => expect((await store.get(job.id))?.progress?.message).toBe('half way'));
    expect((await store.get(job.id))?.status).toBe('processing');
    gate.resolve();
    expect(await finished(store, job.id)).toMatchObject({ status: 'completed', result: { echoed: { x: 1 } } });
    expect(await store.pending()).toEqual([]);
  });

  it('records a failure with the error code of the handler', async () => {
    const { store, runner } = runnerOn(new Keyv(), {
      broken: async () => {
        throw new AppError('UPSTREAM_FAILED', 'every engine failed');
      },
      crashing: async () => {
        throw new TypeError('bug');
      },
    });
    const a = await runner.submit('broken', null);
    const b = await runner.submit('crashing', null);
    expect((await finished(store, a.id)).error).toEqual({ code: 'UPSTREAM_FAILED', message: 'every engine failed' });
    // A bug's own message stays in the log; the job record says where to look.
    const crashed = (await finished(store, b.id)).error!;
    expect(crashed.code).toBe('INTERNAL');
    expect(crashed.message).toMatch(/^internal error \(reference [0-9a-f]{8}\)/);
    expect(crashed.message).not.toContain('bug');
  });

  it('refuses unknown kinds', async () => {
    const { runner } = runnerOn(new Keyv(), {});
    await expect(runner.submit('nope', null)).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('runs at most `concurrency` jobs at once', async () => {
    let running = 0;
    let peak = 0;
    const { store, runner } = runnerOn(
      new Keyv(),
      {
        slow: async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
          return null;
        },
      },
      { concurrency: 2 },
    );
    const jobs = await Promise.all(Array.from({ length: 6 }, () => runner.submit('slow', null)));
    for (const job of jobs) await finished(store, job.id);
    expect(peak).toBe(2);
  });

  it('delivers a signed webhook with the public view and records the outcome', async () => {
    const { store, runner, sent } = runnerOn(new Keyv(), { 'search.web': async (input) => ({ results: [input] }) });
    const job = await runner.submit('search.web', 'q', { idPrefix: 'req_', webhookUrl: 'https://hooks.example/done' });
    const delivered = await vi.waitFor(async () => {
      const current = await store.get(job.id);
      if (current?.webhook?.status !== 'delivered') throw new Error('not yet');
      return current;
    });
    expect(delivered.webhook).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(sent).toHaveLength(1);
    const request = sent[0]!;
    expect(request.url).toBe('https://hooks.example/done');
    expect(request.headers['X-Quarry-Event']).toBe('search.completed');
    expect(verifyWebhookSignature(SECRET, request.headers, request.body)).toBe(true);
    expect(JSON.parse(request.body)).toEqual({
      event: 'search.completed',
      request_id: job.id,
      status: 'completed',
      result: { results: ['q'] },
      timestamp: expect.any(String),
    });
  });

  it('records a webhook that could not be delivered', async () => {
    const { store, runner, sent } = runnerOn(new Keyv(), { 'search.web': async () => null }, { webhookStatus: 500 });
    const job = await runner.submit('search.web', 'q', { webhookUrl: 'https://hooks.example/broken' });
    const failed = await vi.waitFor(async () => {
      const current = await store.get(job.id);
      if (current?.webhook?.status !== 'failed') throw new Error('not yet');
      return current;
    });
    expect(failed.webhook).toMatchObject({ status: 'failed', attempts: 2, lastError: 'HTTP 500' });
    expect(sent).toHaveLength(2);
    expect(await store.pending()).toEqual([]);
  });

  it('aborts running jobs on close and leaves them pending; refuses new work', async () => {
    const records = new Keyv();
    let sawAbort = false;
    const { store, runner } = runnerOn(records, {
      waits: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(ctx.signal.reason);
          });
        }),
    });
    const job = await runner.submit('waits', null);
    await vi.waitFor(async () => expect((await store.get(job.id))?.status).toBe('processing'));
    await runner.close();
    expect(sawAbort).toBe(true);
    expect((await store.get(job.id))?.status).toBe('processing');
    expect((await store.pending()).map((j) => j.id)).toEqual([job.id]);
    await expect(runner.submit('waits', null)).rejects.toMatchObject({ code: 'OVERLOADED' });
  });
});

describe('JobRunner after a crash', () => {
  let dataDir: string;
  const open = async (): Promise<Stores> => {
    const stores = await createStores({ dataDir, logger: silentLogger() });
    cleanups.push(() => stores.close());
    return stores;
  };

  it('resumes jobs left processing or queued, and webhooks still owed, on SQLite', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'quarry-jobs-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    // First life: one job hangs mid-run, a second waits in the queue, a third finished but its webhook is owed.
    const before = await open();
    const hang = deferred<unknown>();
    const first = runnerOn(before.records, { work: () => hang.promise }, { concurrency: 1 });
    const interrupted = await first.runner.submit('work', { n: 1 });
    const waiting = await first.runner.submit('work', { n: 2 });
    await vi.waitFor(async () => expect((await first.store.get(interrupted.id))?.status).toBe('processing'));
    const owed = await first.store.create('work', { n: 3 }, { webhookUrl: 'https://hooks.example/owed' });
    await first.store.complete(owed.id, 'done before the crash');
    // The crash: the process dies without closing anything; only what reached the disk counts.
    await before.close();

    const after = await open();
    const ran: unknown[] = [];
    const second = runnerOn(after.records, {
      work: async (input) => {
        ran.push(input);
        return { finished: input };
      },
    });
    expect(await second.runner.resumePending()).toBe(3);
    expect(await finished(second.store, interrupted.id)).toMatchObject({ status: 'completed', result: { finished: { n: 1 } } });
    expect(await finished(second.store, waiting.id)).toMatchObject({ status: 'completed', result: { finished: { n: 2 } } });
    await vi.waitFor(async () => expect((await second.store.get(owed.id))?.webhook?.status).toBe('delivered'));
    expect(ran).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
    expect(ran).toHaveLength(2);
    expect(second.sent.map((r) => JSON.parse(r.body).request_id)).toEqual([owed.id]);
    expect(await second.store.pending()).toEqual([]);
    expect(await second.runner.resumePending()).toBe(0);
  });
});
