/**
 * The job mechanism as plugins see it: kinds registered by plugins, submit
 * (idempotent by id or key, optionally delayed), status from any instance,
 * cancellation, progress. It decides what each run of a job comes to; the
 * backend (embedded durable queue, or BullMQ on Redis) stores and schedules.
 *
 * At least once, idempotent effects: a run's outcome is recorded once
 * (first writer wins), then the finish listeners run (the webhook delivery,
 * enqueued under a stable id), then the job is marked finished. A run cut
 * short anywhere in between runs again and finds the recorded outcome, so
 * the handler does not run twice for a finished job and no listener sees a
 * second, different outcome.
 */
import { untilAborted } from '../../core/abort.js';
import { AppError, publicError, toAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { mayAccess, type Principal } from '../../core/principal.js';
import { assertValidJobId, generatedJobId, idFromIdempotencyKey } from './job-ids.js';
import { defaultRetryDelayMs } from './retry-policy.js';
import { within } from './within.js';
import {
  JobAbort,
  type JobBackend,
  type JobHandler,
  type JobKind,
  type JobOutcome,
  type JobProgress,
  type JobRecord,
  type Jobs,
  type RunVerdict,
  type RunningJob,
  type SubmitOptions,
  type WaitOptions,
} from './types.js';

export const DEFAULT_LANE = 'default';

export interface JobServiceOptions {
  /** Jobs run at once per instance, per lane unless laneConcurrency says otherwise. */
  concurrency: number;
  laneConcurrency?: Record<string, number>;
  /** Runs cut short by crashes or shutdowns a job may have before it fails for good. */
  maxInterruptions: number;
  /** Minimum gap between progress writes of one job; default 500 ms. */
  progressIntervalMs?: number;
  /**
   * A run whose bookkeeping failed (say Redis away while enqueueing its webhook) runs again after this; default 5 s.
   */
  bookkeepingRetryMs?: number;
}

/** Runs after a job's outcome is recorded and before it is marked finished; must be idempotent. */
export type JobFinishListener = (job: JobRecord, outcome: JobOutcome) => Promise<void>;

interface ResolvedKind {
  run: JobHandler;
  maxAttempts: number;
  retryDelayMs: (error: AppError, attempt: number) => number | null;
  lane: string;
}

const BOOKKEEPING_RETRY_MS = 5000;
const CANCELLED_ERROR = { code: 'CANCELLED', message: 'the job was cancelled' };
const CANCELLED: JobOutcome = { status: 'failed', error: CANCELLED_ERROR };

export function isFinished(job: Pick<JobRecord, 'status'>): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

function abortWhy(signal: AbortSignal): 'cancel' | 'shutdown' | null {
  return signal.aborted && signal.reason instanceof JobAbort ? signal.reason.why : null;
}

export class JobService implements Jobs {
  private readonly kinds = new Map<string, ResolvedKind>();
  private readonly finishListeners: JobFinishListener[] = [];
  private started = false;
  private closed = false;

  constructor(
    private readonly store: JobBackend,
    private readonly logger: Logger,
    private readonly options: JobServiceOptions,
  ) {}

  get backend() {
    return this.store.name;
  }

  /** Registers a kind; before start(), as plugins load. */
  define(kind: string, definition: JobHandler | JobKind): void {
    if (this.started) throw new Error(`job kind "${kind}" defined after the job service started`);
    if (this.kinds.has(kind)) throw new Error(`job kind "${kind}" is defined twice`);
    const spec: JobKind = typeof definition === 'function' ? { run: definition } : definition;
    const lane = spec.lane ?? DEFAULT_LANE;
    this.kinds.set(kind, {
      run: spec.run,
      maxAttempts: Math.max(1, spec.maxAttempts ?? 1),
      retryDelayMs: spec.retryDelayMs ?? defaultRetryDelayMs,
      lane,
    });
    this.store.declareLane(lane);
  }

  /** Listeners run in order, on every instance that finishes a job. */
  onFinished(listener: JobFinishListener): void {
    this.finishListeners.push(listener);
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  async submit(kind: string, input: unknown, options: SubmitOptions = {}): Promise<JobRecord> {
    if (this.closed) throw new AppError('UNAVAILABLE', 'the job service is closed');
    const spec = this.kinds.get(kind);
    if (!spec) throw new AppError('INTERNAL', `no job handler for kind "${kind}"`);
    // One principal's idempotency key never finds another's job.
    const keyScope = options.owner ? `${options.owner.id}\n` : '';
    const id =
      options.jobId ??
      (options.idempotencyKey !== undefined
        ? idFromIdempotencyKey(kind, keyScope + options.idempotencyKey, options.idPrefix)
        : generatedJobId(options.idPrefix));
    assertValidJobId(id);
    if (options.runAt && Number.isNaN(options.runAt.getTime()))
      throw new AppError('INVALID_INPUT', 'runAt: not a valid date');
    const record = await this.store.add({
      id,
      kind,
      lane: spec.lane,
      input,
      ...(options.runAt ? { runAt: options.runAt } : {}),
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
      ...(options.owner ? { owner: { id: options.owner.id, admin: options.owner.admin } } : {}),
    });
    if (record.kind !== kind)
      throw new AppError('INVALID_INPUT', `jobId: "${id}" is already the id of a job of another kind`);
    return this.view(record);
  }

  async get(id: string): Promise<JobRecord | null> {
    const record = await this.store.get(id);
    return record ? this.view(record) : null;
  }

  async getFor(id: string, viewer: Principal | undefined): Promise<JobRecord | null> {
    const record = await this.get(id);
    return record && mayAccess(viewer, record.owner?.id) ? record : null;
  }

  async unfinishedFor(kind: string, viewer: Principal | undefined): Promise<JobRecord[]> {
    const records = await this.store.unfinished(kind);
    return records
      .filter((record) => mayAccess(viewer, record.owner?.id))
      .map((record) => this.view(record))
      .filter((record) => !isFinished(record))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async lastCompletedFor(kind: string, viewer: Principal | undefined): Promise<string | null> {
    if (!viewer) return null;
    return (await this.store.lastCompleted(kind, viewer.id))?.toISOString() ?? null;
  }

  async cancel(id: string): Promise<JobRecord | null> {
    const record = await this.store.cancel(id);
    return record ? this.view(record) : null;
  }

  async waitFor(id: string, options: WaitOptions): Promise<JobRecord | null> {
    let wake = (): void => undefined;
    // Progress is relayed as announced, every update in order; the stored one only until the first is heard.
    let heardAnnounced = false;
    const unwatch = await this.store.watch(id, (announced) => {
      if (announced) {
        heardAnnounced = true;
        options.onProgress?.(announced);
      }
      wake();
    });
    const deadline = performance.now() + options.timeoutMs;
    let first = true;
    try {
      for (;;) {
        // Armed before the read, so a change while reading is not lost.
        const changed = new Promise<void>((resolve) => (wake = resolve));
        const job = await this.get(id);
        if (!job || isFinished(job)) return job;
        if (first && job.progress && !heardAnnounced) options.onProgress?.(job.progress);
        first = false;
        const left = deadline - performance.now();
        if (left <= 0 || options.signal?.aborted) return job;
        if ((await untilAborted(within(changed, left), options.signal).catch(() => 'aborted')) !== 'settled')
          return await this.get(id);
      }
    } finally {
      unwatch();
    }
  }

  /** Starts running jobs (each lane with its concurrency). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const lanes = [...new Set([DEFAULT_LANE, ...[...this.kinds.values()].map((kind) => kind.lane)])].map((name) => ({
      name,
      concurrency: Math.max(1, this.options.laneConcurrency?.[name] ?? this.options.concurrency),
    }));
    await this.store.start(lanes, (job) => this.execute(job));
  }

  /** Stops taking jobs; running ones get graceMs to finish, then go back to the queue. Submits still work. */
  stop(graceMs: number): Promise<void> {
    return this.store.stop(graceMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.store.close();
  }

  /** A job whose cancellation is asked for is reported as it will end. */
  private view(record: JobRecord): JobRecord {
    if (!record.cancelRequested || isFinished(record)) return record;
    const { progress: _progress, ...rest } = record;
    return { ...rest, status: 'failed', error: CANCELLED_ERROR };
  }

  private async execute(job: RunningJob): Promise<RunVerdict> {
    const { record } = job;
    try {
      const recorded = await this.store.recordedOutcome(record.id);
      if (recorded) return await this.finish(record, recorded);
      const outcome = await this.runHandler(job);
      return outcome === 'handed-back'
        ? { kind: 'handed-back' }
        : 'delayMs' in outcome
          ? outcome
          : await this.finish(record, outcome);
    } catch (error) {
      this.logger.error(
        { err: error, job: record.id, kind: record.kind },
        'job bookkeeping failed; the job runs again shortly',
      );
      const appError = toAppError(error);
      return {
        kind: 'retry',
        error: { code: appError.code, message: appError.message },
        delayMs: this.options.bookkeepingRetryMs ?? BOOKKEEPING_RETRY_MS,
      };
    }
  }

  private async runHandler(
    job: RunningJob,
  ): Promise<JobOutcome | 'handed-back' | Extract<RunVerdict, { kind: 'retry' }>> {
    const { record } = job;
    if (record.cancelRequested || abortWhy(job.signal) === 'cancel') return CANCELLED;
    const kind = this.kinds.get(record.kind);
    if (!kind)
      return { status: 'failed', error: { code: 'INTERNAL', message: `no job handler for kind "${record.kind}"` } };
    if (job.interruptions > this.options.maxInterruptions) {
      const message = `the job was interrupted ${job.interruptions} times (an instance crashed or shut down while running it) and is given up`;
      this.logger.error({ job: record.id, kind: record.kind, interruptions: job.interruptions }, message);
      return { status: 'failed', error: { code: 'INTERNAL', message } };
    }
    let result: unknown;
    try {
      result = await kind.run(record.input, {
        id: record.id,
        attempt: job.attempt,
        signal: job.signal,
        progress: this.throttled(job),
        ...(record.owner ? { owner: record.owner } : {}),
      });
    } catch (error) {
      const why = abortWhy(job.signal);
      if (why === 'shutdown') return 'handed-back';
      if (why === 'cancel') return CANCELLED;
      // A bug's message stays in the log; the job record shows a reference to it.
      const appError = publicError(error, this.logger, { job: record.id, kind: record.kind });
      const delayMs = job.attempt < kind.maxAttempts ? kind.retryDelayMs(appError, job.attempt) : null;
      const jobError = { code: appError.code, message: appError.message };
      if (delayMs !== null) return { kind: 'retry', error: jobError, delayMs: Math.max(0, delayMs) };
      return { status: 'failed', error: jobError };
    }
    // Cancelled while the handler was finishing: the caller asked for no result.
    if (abortWhy(job.signal) === 'cancel') return CANCELLED;
    return { status: 'completed', result: result ?? null };
  }

  private async finish(record: JobRecord, outcome: JobOutcome): Promise<RunVerdict> {
    const standing = await this.store.recordOutcome(record.id, outcome);
    // Before the job reads as finished, so whoever sees it completed sees its time too; a failed note is bookkeeping
    // that fails, and the run that repeats it keeps the later time.
    if (standing.status === 'completed' && record.owner)
      await this.store.noteCompleted(record.kind, record.owner.id, new Date());
    for (const listener of this.finishListeners) await listener(record, standing);
    return { kind: 'finished', outcome: standing };
  }

  private throttled(job: RunningJob): (progress: JobProgress) => void {
    const intervalMs = this.options.progressIntervalMs ?? 500;
    let last = -Infinity;
    return (progress) => {
      job.announce(progress);
      const now = performance.now();
      if (now - last < intervalMs) return;
      last = now;
      job.progress(progress);
    };
  }
}
