/**
 * The job backend on Redis, with BullMQ: one BullMQ queue per lane, a worker
 * per lane on every instance. A job accepted by one instance runs on
 * whichever takes it; its state is BullMQ's job hash, readable from all.
 *
 * Failover is BullMQ's stalled-job recovery: a running job holds a lock that
 * its worker renews every lockMs/2; when the instance dies the lock expires
 * after at most lockMs. Stalled checks (every stalledIntervalMs, by one
 * instance at a time) mark the active jobs, and the next check moves those
 * whose lock is gone back to the queue; a check that falls within the dead
 * instance's last interval is skipped. So another instance takes the job
 * over within lockMs + 2 × stalledIntervalMs (50 s with the defaults).
 *
 * Retries are decided by the job service: a run that should be retried
 * throws with its delay (read by the custom backoff), a final failure throws
 * UnrecoverableError, a run cut short by shutdown moves the job back to wait.
 * Cancellation is a flag in Redis plus a message on a channel every instance
 * listens to, so the instance running the job aborts it. Watching a job
 * listens to its lane's BullMQ event stream (every instance's stored
 * progress and outcomes) and to the progress channel, where each update is
 * announced as it happens.
 */
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { Job, Queue, QueueEvents, UnrecoverableError, WaitingError, Worker, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../../../core/logger.js';
import { commandConnectionOptions } from '../../../core/stores/redis-client.js';
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
import { decodeJobError, encodeJobError, toJobRecord, type BullJobData, type StoredResult } from './bull-records.js';

export interface BullJobBackendOptions {
  redisUrl: string;
  /** The shared command connection (cancel flags, outcomes, the cancel channel's publisher). */
  redis: Redis;
  /** Key prefix of every BullMQ key; default "quarry". */
  prefix?: string;
  /** How long a running job's lock lasts without renewal (failover ≤ lockMs + 2 × stalledIntervalMs). */
  lockMs: number;
  stalledIntervalMs: number;
  /** Stalls a job survives before BullMQ fails it; set above the job service's own interruption bound. */
  maxStalledCount: number;
  /** How long finished jobs stay readable. */
  keepFinishedSeconds: number;
  /** After the grace period, how long aborted runs get to hand their jobs back; default 5 s. */
  handBackMs?: number;
  logger: Logger;
}

/** Retries are the job service's decision; BullMQ only needs to allow them. */
const UNBOUNDED_ATTEMPTS = 1_000_000;
const BACKOFF_TYPE = 'quarry';
/** After the grace period, how long aborted runs get to hand their jobs back. */
const HAND_BACK_MS = 5000;
/**
 * A lane's event stream is read from this far back when first watched: events written while the
 * reader connects are not missed (a notice for nothing only costs the watcher a read).
 */
const EVENT_REPLAY_MS = 5000;
/** BullMQ's states of a job that has not finished. */
const UNFINISHED_STATES = ['waiting', 'prioritized', 'delayed', 'waiting-children', 'active'] as const;
const isFinishedState = (record: JobRecord): boolean => record.status === 'completed' || record.status === 'failed';
const WATCHED_EVENTS = ['progress', 'completed', 'failed', 'delayed', 'waiting', 'removed'] as const;

interface Announcement {
  id: string;
  progress: JobProgress;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** An error carrying the retry delay the job service chose. */
class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

export class BullJobBackend implements JobBackend {
  readonly name = 'bullmq' as const;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly laneEvents = new Map<string, Promise<QueueEvents>>();
  /** Change notices by job id, fed by the lanes' event streams and the cancel channel. */
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private readonly prefix: string;
  /** The worker name stored on every job it takes (processedBy): host and process. */
  readonly workerName = `${hostname()}:${process.pid}`;
  private subscriber: Promise<Redis> | null = null;
  private stopped: Promise<void> | null = null;
  private closed = false;
  /** Resolved when shutdown gives up on handlers that ignore their abort: their runs hand the jobs back anyway. */
  private readonly giveUp = deferred();

  constructor(private readonly options: BullJobBackendOptions) {
    this.prefix = options.prefix ?? 'quarry';
  }

  declareLane(name: string): void {
    this.queue(name);
  }

  async add(job: NewJob): Promise<JobRecord> {
    const data: BullJobData = { input: job.input };
    if (job.webhookUrl) data.webhookUrl = job.webhookUrl;
    if (job.owner) data.owner = job.owner;
    const opts: JobsOptions = {
      jobId: job.id,
      attempts: UNBOUNDED_ATTEMPTS,
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: { age: this.options.keepFinishedSeconds },
      removeOnFail: { age: this.options.keepFinishedSeconds },
    };
    if (job.runAt) opts.delay = Math.max(0, job.runAt.getTime() - Date.now());
    const queue = this.queue(job.lane);
    // An existing id is left as it is (BullMQ ignores the add); read back what is stored.
    await queue.add(job.kind, data, opts);
    const stored = await this.read(queue, job.id);
    if (!stored) throw new Error(`job ${job.id} vanished right after it was added`);
    return stored;
  }

  async get(id: string): Promise<JobRecord | null> {
    const found = await Promise.all([...this.queues.values()].map((queue) => this.read(queue, id)));
    return found.find((record) => record !== null) ?? null;
  }

  async unfinished(kind: string): Promise<JobRecord[]> {
    const lanes = await Promise.all(
      [...this.queues.values()].map(async (queue) => {
        const jobs = await queue.getJobs([...UNFINISHED_STATES]);
        const ofKind = jobs.filter((job): job is Job<BullJobData> => job?.name === kind);
        // Each job's own state and cancel flag: the listing says only that it was unfinished when listed.
        return Promise.all(ofKind.map((job) => this.read(queue, job.id!)));
      }),
    );
    return lanes.flat().filter((record): record is JobRecord => record !== null && !isFinishedState(record));
  }

  async cancel(id: string): Promise<JobRecord | null> {
    for (const queue of this.queues.values()) {
      const state = await queue.getJobState(id);
      const job = state === 'unknown' ? undefined : await Job.fromId<BullJobData>(queue, id);
      if (!job) continue;
      if (state === 'completed' || state === 'failed') return this.toRecord(job, state);
      // The flag first: a run that starts after this sees it; one already running gets the message.
      await this.options.redis.set(this.cancelKey(id), '1', 'EX', this.options.keepFinishedSeconds);
      await this.options.redis.publish(this.cancelChannel(), id);
      if (state === 'delayed') await job.promote().catch(() => undefined);
      return this.toRecord(job, state, true);
    }
    return null;
  }

  async watch(id: string, onChange: (announced?: JobProgress) => void): Promise<() => void> {
    this.changes.on(id, onChange);
    try {
      await Promise.all([this.subscribed(), ...[...this.queues.keys()].map((lane) => this.events(lane))]);
    } catch (error) {
      this.changes.off(id, onChange);
      throw error;
    }
    return () => this.changes.off(id, onChange);
  }

  async recordedOutcome(id: string): Promise<JobOutcome | null> {
    const stored = await this.options.redis.get(this.outcomeKey(id));
    return stored ? (JSON.parse(stored) as JobOutcome) : null;
  }

  async recordOutcome(id: string, outcome: JobOutcome): Promise<JobOutcome> {
    const set = await this.options.redis.set(
      this.outcomeKey(id),
      JSON.stringify(outcome),
      'EX',
      this.options.keepFinishedSeconds,
      'NX',
    );
    if (set === 'OK') return outcome;
    return (await this.recordedOutcome(id)) ?? outcome;
  }

  async noteCompleted(kind: string, ownerId: string, at: Date): Promise<void> {
    // GT: a time earlier than the one kept (another instance noted a later completion first) changes nothing.
    await this.options.redis.zadd(this.completedKey(kind), 'GT', at.getTime(), ownerId);
  }

  async lastCompleted(kind: string, ownerId: string): Promise<Date | null> {
    const ms = await this.options.redis.zscore(this.completedKey(kind), ownerId);
    return ms === null ? null : new Date(Number(ms));
  }

  async start(lanes: LaneSettings[], execute: JobExecutor): Promise<void> {
    await this.subscribed();
    for (const lane of lanes) {
      const worker = new Worker<BullJobData>(
        this.queueName(lane.name),
        (job, token) => this.process(job, token!, execute),
        {
          connection: { url: this.options.redisUrl, connectionName: `quarry-jobs-${lane.name}` },
          prefix: this.prefix,
          name: this.workerName,
          concurrency: lane.concurrency,
          lockDuration: this.options.lockMs,
          stalledInterval: this.options.stalledIntervalMs,
          maxStalledCount: this.options.maxStalledCount,
          autorun: false,
          settings: { backoffStrategy: (_attempts, _type, error) => (error instanceof RetryLater ? error.delayMs : 0) },
        },
      );
      worker.on('error', (error) => this.options.logger.error({ err: error, lane: lane.name }, 'job worker error'));
      this.workers.push(worker);
      worker
        .run()
        .catch((error: unknown) => this.options.logger.error({ err: error, lane: lane.name }, 'job worker stopped'));
    }
  }

  stop(graceMs: number): Promise<void> {
    this.stopped ??= this.drain(graceMs);
    return this.stopped;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stop(0);
    await Promise.allSettled([...this.laneEvents.values()].map(async (events) => (await events).close()));
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
  }

  private async process(job: Job<BullJobData>, token: string, execute: JobExecutor): Promise<unknown> {
    const controller = new AbortController();
    this.running.set(job.id!, controller);
    let verdict: RunVerdict;
    try {
      // Registered before the flag is read: a cancel either sets the flag before this read or reaches us on the
      // channel.
      const cancelled = (await this.options.redis.exists(this.cancelKey(job.id!))) === 1;
      verdict = await Promise.race([
        this.giveUp.promise.then((): RunVerdict => ({ kind: 'handed-back' })),
        execute({
          record: this.toRecord(job, 'active', cancelled),
          attempt: job.attemptsMade + 1,
          interruptions: Math.max(0, job.attemptsStarted - job.attemptsMade - 1),
          signal: controller.signal,
          progress: (progress) => {
            job
              .updateProgress(progress)
              .catch((error: unknown) =>
                this.options.logger.warn({ err: error, job: job.id }, 'progress write failed'),
              );
          },
          announce: (progress) => {
            const message = JSON.stringify({ id: job.id!, progress } satisfies Announcement);
            this.options.redis
              .publish(this.progressChannel(), message)
              .catch((error: unknown) =>
                this.options.logger.warn({ err: error, job: job.id }, 'progress announcement failed'),
              );
          },
        }),
      ]);
    } finally {
      this.running.delete(job.id!);
    }
    switch (verdict.kind) {
      case 'finished':
        // Wrapped: BullMQ stores a falsy return value as nothing.
        if (verdict.outcome.status === 'completed') return { value: verdict.outcome.result } satisfies StoredResult;
        throw new UnrecoverableError(encodeJobError(verdict.outcome.error));
      case 'retry':
        throw new RetryLater(encodeJobError(verdict.error), verdict.delayMs);
      case 'handed-back':
        await job.moveToWait(token);
        throw new WaitingError();
    }
  }

  /**
   * Stops every worker at once, without waiting for its jobs or handing them
   * back: what other instances see when this one dies (they take the jobs
   * over once the locks expire). For tests, and as a last resort.
   */
  async abandon(): Promise<void> {
    this.stopped ??= Promise.allSettled(this.workers.map((worker) => worker.close(true))).then(async () => {
      await this.unsubscribe();
    });
    await this.stopped;
  }

  private async drain(graceMs: number): Promise<void> {
    // close() stops fetching and waits for the running jobs.
    const closing = Promise.allSettled(this.workers.map((worker) => worker.close()));
    if ((await within(closing, graceMs)) === 'timeout') {
      for (const controller of this.running.values()) controller.abort(new JobAbort('shutdown'));
      if ((await within(closing, this.options.handBackMs ?? HAND_BACK_MS)) === 'timeout') {
        this.options.logger.warn(
          { stillRunning: this.running.size },
          'jobs ignored the shutdown; handing them back while they still run',
        );
        this.giveUp.resolve();
        await within(closing, this.options.handBackMs ?? HAND_BACK_MS);
      }
    }
    await this.unsubscribe();
  }

  /** The connection that hears cancellations and progress announcements from every instance. */
  private subscribed(): Promise<Redis> {
    this.subscriber ??= (async () => {
      const subscriber = this.options.redis.duplicate({
        ...commandConnectionOptions('quarry-jobs-channels'),
        lazyConnect: false,
      });
      subscriber.on('error', (error: unknown) => this.options.logger.warn({ err: error }, 'job channels: Redis error'));
      subscriber.on('message', (channel: string, message: string) => {
        if (channel === this.cancelChannel()) {
          this.running.get(message)?.abort(new JobAbort('cancel'));
          this.changes.emit(message);
          return;
        }
        const { id, progress } = JSON.parse(message) as Announcement;
        this.changes.emit(id, progress);
      });
      await subscriber.subscribe(this.cancelChannel(), this.progressChannel());
      return subscriber;
    })();
    return this.subscriber;
  }

  private async unsubscribe(): Promise<void> {
    const subscriber = await this.subscriber?.catch(() => null);
    await subscriber?.quit().catch(() => undefined);
  }

  private queue(lane: string): Queue {
    let queue = this.queues.get(lane);
    if (!queue) {
      queue = new Queue(this.queueName(lane), {
        connection: { url: this.options.redisUrl, connectionName: `quarry-queue-${lane}` },
        prefix: this.prefix,
      });
      queue.on('error', (error) => this.options.logger.error({ err: error, lane }, 'job queue error'));
      this.queues.set(lane, queue);
    }
    return queue;
  }

  /** The lane's event reader, connected once and shared by every watch. */
  private events(lane: string): Promise<QueueEvents> {
    let events = this.laneEvents.get(lane);
    if (!events) {
      const reader = new QueueEvents(this.queueName(lane), {
        connection: { url: this.options.redisUrl, connectionName: `quarry-job-events-${lane}` },
        prefix: this.prefix,
        lastEventId: `${Date.now() - EVENT_REPLAY_MS}-0`,
      });
      reader.on('error', (error) => this.options.logger.warn({ err: error, lane }, 'job events: Redis error'));
      for (const name of WATCHED_EVENTS) reader.on(name, ({ jobId }: { jobId: string }) => this.changes.emit(jobId));
      events = reader.waitUntilReady().then(() => reader);
      events.catch(() => this.laneEvents.delete(lane));
      this.laneEvents.set(lane, events);
    }
    return events;
  }

  private async read(queue: Queue, id: string): Promise<JobRecord | null> {
    // The state first, then the hash: a job that finished in between then reads as still running,
    // never as finished without its result.
    const state = await queue.getJobState(id);
    if (state === 'unknown') return null;
    const [job, cancelled] = await Promise.all([
      Job.fromId<BullJobData>(queue, id),
      this.options.redis.exists(this.cancelKey(id)),
    ]);
    if (!job) return null;
    return this.toRecord(job, state, cancelled === 1);
  }

  private toRecord(job: Job<BullJobData>, state: string, cancelRequested = false): JobRecord {
    return toJobRecord(job, state, cancelRequested, decodeJobError);
  }

  private queueName(lane: string): string {
    return `jobs-${lane}`;
  }

  private cancelKey(id: string): string {
    return `${this.prefix}:job-cancel:${id}`;
  }

  private outcomeKey(id: string): string {
    return `${this.prefix}:job-outcome:${id}`;
  }

  /** One sorted set per kind: each owner's last completion time (ms) as its score, kept for good. */
  private completedKey(kind: string): string {
    return `${this.prefix}:job-completed:${kind}`;
  }

  private cancelChannel(): string {
    return `${this.prefix}:job-cancel`;
  }

  private progressChannel(): string {
    return `${this.prefix}:job-progress`;
  }
}
