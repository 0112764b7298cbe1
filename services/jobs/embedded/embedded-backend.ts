/**
 * The embedded job backend: the default, with no service to run. Jobs live
 * in the record store under the data directory (SQLite) and run in this
 * process, each lane with its own concurrency; delayed jobs and retries wait
 * on timers. On start, every job a crash or shutdown left unfinished is
 * scheduled again, so a job accepted before a SIGKILL completes or fails
 * explicitly after the restart.
 *
 * One process per data directory: the records and the pending index are
 * not meant to be shared (several instances use the BullMQ backend).
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../../core/logger.js';
import { within } from '../within.js';
import {
  JobAbort,
  type JobBackend,
  type JobExecutor,
  type JobOutcome,
  type JobProgress,
  type JobRecord,
  type LaneSettings,
  type NewJob,
  type RunVerdict,
} from '../types.js';
import { type EmbeddedJobStore, isStoredFinished, publicRecord, type StoredJob } from './embedded-job-store.js';

interface Lane {
  concurrency: number;
  queue: string[];
  running: Map<string, { controller: AbortController; done: Promise<void> }>;
}

/** setTimeout's limit; longer waits re-arm when they fire. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After the grace period, how long aborted runs get to hand their jobs back. */
const HAND_BACK_MS = 5000;

export interface EmbeddedJobBackendOptions {
  /** After the grace period, how long aborted runs get to hand their jobs back; default 5 s. */
  handBackMs?: number;
}

export class EmbeddedJobBackend implements JobBackend {
  readonly name = 'embedded' as const;
  private readonly lanes = new Map<string, Lane>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Ids queued, waiting on a timer or running here, so a job is never scheduled twice. */
  private readonly scheduled = new Set<string>();
  private execute: JobExecutor | null = null;
  private accepting = false;
  private stopped: Promise<void> | null = null;
  /** Change notices by job id: every job runs in this process, so every change happens here. */
  private readonly changes = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly store: EmbeddedJobStore,
    private readonly logger: Logger,
    private readonly options: EmbeddedJobBackendOptions = {},
  ) {}

  declareLane(): void {
    // One store holds every lane's jobs.
  }

  async add(job: NewJob): Promise<JobRecord> {
    const stored = await this.store.add(job);
    this.schedule(stored);
    return publicRecord(stored);
  }

  async get(id: string): Promise<JobRecord | null> {
    const stored = await this.store.get(id);
    return stored ? publicRecord(stored) : null;
  }

  async unfinished(kind: string): Promise<JobRecord[]> {
    return (await this.store.pending()).filter((job) => job.kind === kind).map(publicRecord);
  }

  async cancel(id: string): Promise<JobRecord | null> {
    const stored = await this.store.requestCancel(id);
    if (!stored) return null;
    this.changes.emit(id);
    if (isStoredFinished(stored)) return publicRecord(stored);
    const running = this.laneOf(stored).running.get(id);
    if (running) running.controller.abort(new JobAbort('cancel'));
    else if (this.timers.has(id)) {
      // Waiting on a timer: run now, so it ends as cancelled at once.
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
      this.scheduled.delete(id);
      this.schedule(stored);
    }
    return publicRecord(stored);
  }

  recordedOutcome(id: string): Promise<JobOutcome | null> {
    return this.store.get(id).then((job) => job?.outcome ?? null);
  }

  recordOutcome(id: string, outcome: JobOutcome): Promise<JobOutcome> {
    return this.store.recordOutcome(id, outcome);
  }

  noteCompleted(kind: string, ownerId: string, at: Date): Promise<void> {
    return this.store.noteCompleted(kind, ownerId, at);
  }

  lastCompleted(kind: string, ownerId: string): Promise<Date | null> {
    return this.store.lastCompleted(kind, ownerId);
  }

  async watch(id: string, onChange: (announced?: JobProgress) => void): Promise<() => void> {
    this.changes.on(id, onChange);
    return () => this.changes.off(id, onChange);
  }

  async start(lanes: LaneSettings[], execute: JobExecutor): Promise<void> {
    for (const lane of lanes)
      this.lanes.set(lane.name, { concurrency: lane.concurrency, queue: [], running: new Map() });
    this.execute = execute;
    this.accepting = true;
    const pending = await this.store.pending();
    for (const job of pending) this.schedule(job);
    if (pending.length > 0)
      this.logger.info({ jobs: pending.length }, 'resumed jobs accepted before the last shutdown');
  }

  stop(graceMs: number): Promise<void> {
    this.stopped ??= this.drain(graceMs);
    return this.stopped;
  }

  async close(): Promise<void> {
    await this.stop(0);
  }

  /**
   * Stops at once without aborting or recording anything: what the store
   * shows after this process dies (its running jobs stay processing and
   * run again on the next start). For tests.
   */
  abandon(): void {
    this.accepting = false;
    this.stopped ??= Promise.resolve();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const lane of this.lanes.values()) lane.queue.length = 0;
  }

  /** Queues the job in its lane now, or on a timer when it is not due yet. */
  private schedule(job: StoredJob): void {
    if (!this.accepting || isStoredFinished(job) || this.scheduled.has(job.id)) return;
    this.scheduled.add(job.id);
    const waitMs = job.runAt ? Date.parse(job.runAt) - Date.now() : 0;
    if (waitMs > 0) {
      const timer = setTimeout(
        () => {
          this.timers.delete(job.id);
          this.scheduled.delete(job.id);
          // Re-read: the job may have been cancelled or re-timed meanwhile.
          this.store.get(job.id).then(
            (current) => current && this.schedule(current),
            (error: unknown) => this.logger.error({ err: error, job: job.id }, 'reading a delayed job failed'),
          );
        },
        Math.min(waitMs, MAX_TIMER_MS),
      );
      timer.unref();
      this.timers.set(job.id, timer);
      return;
    }
    const lane = this.laneOf(job);
    lane.queue.push(job.id);
    this.pump(lane);
  }

  private laneOf(job: StoredJob): Lane {
    return this.lanes.get(job.lane) ?? this.lanes.values().next().value!;
  }

  private pump(lane: Lane): void {
    while (this.accepting && lane.running.size < lane.concurrency && lane.queue.length > 0) {
      const id = lane.queue.shift()!;
      const controller = new AbortController();
      const done = this.runOnce(id, controller.signal)
        .catch((error: unknown) => this.logger.error({ err: error, job: id }, 'job bookkeeping failed'))
        .then((rescheduled) => {
          lane.running.delete(id);
          this.scheduled.delete(id);
          if (rescheduled) this.schedule(rescheduled);
          this.pump(lane);
        });
      lane.running.set(id, { controller, done });
    }
  }

  /** One run of a job; answers the job when it must be scheduled again (a retry). */
  private async runOnce(id: string, signal: AbortSignal): Promise<StoredJob | null> {
    const job = await this.store.markRunning(id);
    if (!job) return null;
    const verdict: RunVerdict = await this.execute!({
      record: publicRecord(job),
      attempt: job.failures + 1,
      interruptions: job.attempts - 1 - job.failures,
      signal,
      progress: (progress) => {
        this.store
          .setProgress(id, progress)
          .catch((error: unknown) => this.logger.warn({ err: error, job: id }, 'progress write failed'));
      },
      announce: (progress) => this.changes.emit(id, progress),
    });
    switch (verdict.kind) {
      case 'finished':
        await this.store.finish(id, verdict.outcome);
        this.changes.emit(id);
        return null;
      case 'retry':
        return this.store.retryLater(id, verdict.error, new Date(Date.now() + verdict.delayMs));
      case 'handed-back':
        await this.store.handBack(id);
        return null;
    }
  }

  private async drain(graceMs: number): Promise<void> {
    this.accepting = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const running = [...this.lanes.values()].flatMap((lane) => {
      lane.queue.length = 0;
      return [...lane.running.values()];
    });
    if (running.length === 0) return;
    const settled = Promise.allSettled(running.map((run) => run.done));
    if ((await within(settled, graceMs)) === 'settled') return;
    for (const run of running) run.controller.abort(new JobAbort('shutdown'));
    if ((await within(settled, this.options.handBackMs ?? HAND_BACK_MS)) === 'timeout') {
      // Left as they are in the store (processing): the next start runs them again.
      this.logger.warn({ stillRunning: running.length }, 'jobs ignored the shutdown; they run again on the next start');
    }
  }
}
