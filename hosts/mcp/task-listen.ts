/**
 * Task status pushed to the client: the Tasks extension's `notifications/tasks`,
 * delivered on a `subscriptions/listen` stream that names task ids
 * (`params.notifications.taskIds`), as the 2026-07-28 revision subscribes.
 * The stream acknowledges the ids it will report on — the caller's own tasks;
 * an unknown id, or another principal's, is left out as tasks/get would refuse
 * it — then sends each task's state at once and again each time its status
 * changes, the whole task as tasks/get answers it (with the final result once
 * completed), every notification stamped with the subscription id (the listen
 * request's id). When every task it reports on has ended it closes with the
 * listen request's empty result, the revision's graceful close. Changes are
 * heard through the job service's change notices, so the stream may be open on
 * any instance, whichever one runs the job; nothing is kept once it closes.
 * The SDK's listen router knows only list and resource changes, so such a
 * request is answered here. A caller holds at most MAX_STREAMS_PER_CALLER
 * open streams on one instance: each holds a socket and a job watch for as
 * long as its tasks run, so one key could otherwise exhaust them.
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { CallContext } from '../../core/capability.js';
import { isFinished } from '../../services/jobs/job-service.js';
import type { Jobs } from '../../services/jobs/types.js';
import { errorReply, INVALID_REQUEST } from './message-checks.js';
import type { TaskState, ToolTasks } from './tool-tasks.js';

/** Most task ids one stream reports on. */
const MAX_TASK_IDS = 100;
/** Most listen streams one caller keeps open on one instance. */
export const MAX_STREAMS_PER_CALLER = 16;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** One wait for a job's end lasts this long before it is renewed. */
const WAIT_SLICE_MS = 60_000;

type RequestId = string | number;

/**
 * The task ids a subscriptions/listen request asks about, or undefined when it names none (the SDK answers it then).
 */
export function listenedTaskIds(body: unknown): string[] | undefined {
  const message = body as { method?: unknown; params?: { notifications?: { taskIds?: unknown } } } | null;
  if (message?.method !== 'subscriptions/listen') return undefined;
  const ids = message.params?.notifications?.taskIds;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)
  )
    return undefined;
  return [...new Set(ids as string[])].slice(0, MAX_TASK_IDS);
}

export class TaskListen {
  /** Open streams per caller id (the anonymous caller of a keyless server counts as one). */
  private readonly openStreams = new Map<string, number>();

  constructor(
    private readonly tasks: ToolTasks,
    private readonly jobs: Jobs,
  ) {}

  /**
   * The listen stream (SSE) for these task ids, read for the caller in `ctx`; `ctx.signal` ends it (the client went
   * away).
   */
  async open(subscriptionId: RequestId, taskIds: string[], ctx: CallContext): Promise<Response> {
    const caller = ctx.caller?.id ?? 'anonymous';
    const open = this.openStreams.get(caller) ?? 0;
    if (open >= MAX_STREAMS_PER_CALLER) {
      const refusal = errorReply(
        subscriptionId,
        INVALID_REQUEST,
        `Too many open subscriptions/listen streams: ${MAX_STREAMS_PER_CALLER} per key on one server; close one first`,
        { code: 'RATE_LIMITED' },
      );
      return new Response(JSON.stringify(refusal), { status: 429, headers: { 'content-type': 'application/json' } });
    }
    this.openStreams.set(caller, open + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.openStreams.get(caller) ?? 1) - 1;
      if (left > 0) this.openStreams.set(caller, left);
      else this.openStreams.delete(caller);
    };
    const known = new Map<string, TaskState>();
    for (const taskId of taskIds) {
      const state = await this.tasks.get(taskId, ctx).catch(() => undefined);
      if (state) known.set(taskId, state);
    }
    const stamp = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
    const encoder = new TextEncoder();
    let closed = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const write = (message: object) => {
          if (!closed)
            controller.enqueue(
              encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`),
            );
        };
        const close = (graceful: boolean) => {
          if (closed) return;
          if (graceful) write({ id: subscriptionId, result: { resultType: 'complete', _meta: stamp } });
          closed = true;
          clearInterval(keepAlive);
          release();
          controller.close();
        };
        const notify = (state: TaskState) =>
          write({ method: 'notifications/tasks', params: { ...state, _meta: stamp } });
        write({
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: { taskIds: [...known.keys()] }, _meta: stamp },
        });
        for (const state of known.values()) notify(state);
        keepAlive = setInterval(() => !closed && controller.enqueue(encoder.encode(': keepalive\n\n')), KEEP_ALIVE_MS);
        ctx.signal.addEventListener('abort', () => close(false), { once: true });
        const watching = [...known.values()]
          .filter((state) => state.status === 'working')
          .map((state) => this.watch(state, ctx, notify, () => closed));
        void Promise.allSettled(watching).then(() => close(true));
      },
      cancel: () => {
        closed = true;
        clearInterval(keepAlive);
        release();
      },
    });
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  }

  /**
   * Waits for the task's job to change status (woken by change notices, from any instance) and reports each change
   * until it ends.
   */
  private async watch(
    start: TaskState,
    ctx: CallContext,
    notify: (state: TaskState) => void,
    closed: () => boolean,
  ): Promise<void> {
    let last = start.status;
    while (!closed() && last === 'working') {
      const job = await this.jobs
        .waitFor(start.taskId, { timeoutMs: WAIT_SLICE_MS, signal: ctx.signal })
        .catch(() => null);
      if (!job || closed()) return;
      if (!isFinished(job)) continue;
      // The record just waited for is the task's (its owner was checked when the stream opened): no second read.
      const state = await this.tasks.stateOfRecord(job, ctx);
      if (state.status !== last) notify(state);
      last = state.status;
    }
  }
}
