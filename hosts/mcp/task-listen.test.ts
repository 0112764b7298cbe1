import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../core/capability.js';
import { silentLogger } from '../../core/logger.js';
import type { Jobs } from '../../services/jobs/types.js';
import { MAX_STREAMS_PER_CALLER, TaskListen } from './task-listen.js';
import type { TaskState, ToolTasks } from './tool-tasks.js';

/** Tasks that run until the test ends: every id is the caller's, working. */
const working = (taskId: string): TaskState => ({
  taskId,
  status: 'working',
  createdAt: '2026-11-27T00:00:00Z',
  lastUpdatedAt: '2026-11-27T00:00:00Z',
  pollIntervalMs: 1000,
  ttlMs: null,
});
const tasks = { get: async (taskId: string) => working(taskId) } as unknown as ToolTasks;
/** A job that never ends: each wait lasts until its signal aborts. */
const jobs = {
  waitFor: (_id: string, options: { signal?: AbortSignal }) =>
    new Promise((resolve) => options.signal?.addEventListener('abort', () => resolve(null), { once: true })),
} as unknown as Jobs;

function context(callerId: string, signal: AbortSignal): CallContext {
  return {
    signal,
    logger: silentLogger(),
    host: 'mcp',
    caller: { id: callerId, admin: false } as CallContext['caller'],
    progress: () => undefined,
  };
}

describe('task listen streams', () => {
  it('keeps at most MAX_STREAMS_PER_CALLER open per caller, refusing the next with 429 until one closes; other callers unaffected', async () => {
    const listen = new TaskListen(tasks, jobs);
    const streams = Array.from({ length: MAX_STREAMS_PER_CALLER }, () => new AbortController());
    for (const [i, controller] of streams.entries()) {
      const response = await listen.open(`listen-${i}`, ['job-1'], context('key:a', controller.signal));
      expect(response.status).toBe(200);
    }
    const refused = await listen.open('one-too-many', ['job-1'], context('key:a', new AbortController().signal));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 'one-too-many',
      error: { message: expect.stringContaining('Too many open subscriptions/listen streams') },
    });
    // Another key has its own allowance.
    const other = new AbortController();
    expect((await listen.open('other', ['job-2'], context('key:b', other.signal))).status).toBe(200);
    // The client of one stream goes away: its place is free again.
    streams[0]!.abort();
    expect((await listen.open('again', ['job-1'], context('key:a', new AbortController().signal))).status).toBe(200);
    for (const controller of [...streams, other]) controller.abort();
  });
});
