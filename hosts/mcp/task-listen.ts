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
 * request is answered here.
 */
import type { CallContext } from '../../core/capability.js';
import type { Jobs } from '../../services/jobs/types.js';
import type { TaskState, ToolTasks } from './tool-tasks.js';

const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
/** Most task ids one stream reports on. */
const MAX_TASK_IDS = 100;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** One wait for a job's end lasts this long before it is renewed. */
const WAIT_SLICE_MS = 60_000;

type RequestId = string | number;

/** The task ids a subscriptions/listen request asks about, or undefined when it names none (the SDK answers it then). */
export function listenedTaskIds(body: unknown): string[] | undefined {
  const message = body as { method?: unknown; params?: { notifications?: { taskIds?: unknown } } } | null;
  if (message?.method !== 'subscriptions/listen') return undefined;
  const ids = message.params?.notifications?.taskIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) return undefined;
  return [...new Set(ids as string[])].slice(0, MAX_TASK_IDS);
}

export class TaskListen {
  constructor(
    private readonly tasks: ToolTasks,
    private readonly jobs: Jobs,
  ) {}

  /** The listen stream (SSE) for these task ids, read for the caller in `ctx`; `ctx.signal` ends it (the client went away). */
  async open(subscriptionId: RequestId, taskIds: string[], ctx: CallContext): Promise<Response> {
    const known = new Map<string, TaskState>();
    for (const taskId of taskIds) {
      const state = await this.tasks.get(taskId, ctx).catch(() => undefined);
      if (state) known.set(taskId, state);
    }
    const stamp = { [SUBSCRIPTION_ID_KEY]: subscriptionId };
    const encoder = new TextEncoder();
    let closed = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const write = (message: object) => {
          if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`));
        };
        const close = (graceful: boolean) => {
          if (closed) return;
          if (graceful) write({ id: subscriptionId, result: { resultType: 'complete', _meta: stamp } });
          closed = true;
          clearInterval(keepAlive);
          controller.close();
        };
        const notify = (state: TaskState) => write({ method: 'notifications/tasks', params: { ...state, _meta: stamp } });
        write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [...known.keys()] }, _meta: stamp } });
        for (const state of known.values()) notify(state);
        keepAlive = setInterval(() => !closed && controller.enqueue(encoder.encode(': keepalive\n\n')), KEEP_ALIVE_MS);
        ctx.signal.addEventListener('abort', () => close(false), { once: true });
        const watching = [...known.values()].filter((state) => state.status === 'working').map((state) => this.watch(state, ctx, notify, () => closed));
        void Promise.allSettled(watching).then(() => close(true));
      },
      cancel: () => {
        closed = true;
        clearInterval(keepAlive);
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' } });
  }

  /** Waits for the task's job to change status (woken by change notices, from any instance) and reports each change until it ends. */
  private async watch(start: TaskState, ctx: CallContext, notify: (state: TaskState) => void, closed: () => boolean): Promise<void> {
    let last = start.status;
    while (!closed() && last === 'working') {
      const job = await this.jobs.waitFor(start.taskId, { timeoutMs: WAIT_SLICE_MS, signal: ctx.signal }).catch(() => null);
      if (!job || closed()) return;
      if (job.status !== 'completed' && job.status !== 'failed') continue;
      const state = await this.tasks.get(start.taskId, ctx);
      if (state.status !== last) notify(state);
      last = state.status;
    }
  }
}
