/**
 * Runs durable jobs in the background with bounded concurrency, records
 * progress and outcome, delivers the signed webhook when one was asked for,
 * and on start-up runs again whatever a crash left unfinished.
 *
 * Guarantees: a job is run at least once (a crash mid-run means it runs
 * again from the start on the next start-up), and its webhook is delivered
 * at least once. With several processes on one Redis, every process resumes
 * every pending job at start-up: run one runner per record store until jobs
 * carry leases.
 */
import { AppError, publicError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { WebhookSender } from '../webhooks/webhook-sender.js';
import { isFinished, owesWebhook, type CreateJobOptions, type JobProgress, type JobRecord, type JobStore } from './job-store.js';
import { webhookEventName, webhookPayload } from './webhook-payload.js';

export interface JobContext {
  /** Aborted when the runner shuts down; the job is then resumed on the next start. */
  signal: AbortSignal;
  /** Advisory progress, written at most every progressIntervalMs. */
  progress(progress: JobProgress): void;
}

export type JobHandler = (input: unknown, ctx: JobContext) => Promise<unknown>;

export interface JobRunnerOptions {
  concurrency: number;
  /** How long close() waits for aborted jobs to settle; default 5 s. */
  graceMs?: number;
  /** Minimum gap between progress writes of one job; default 500 ms. */
  progressIntervalMs?: number;
}

interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
}

export class JobRunner {
  private readonly queue: string[] = [];
  /** Ids queued or running here, so a job is never scheduled twice. */
  private readonly scheduled = new Set<string>();
  private readonly running = new Map<string, RunningJob>();
  private closing = false;

  constructor(
    private readonly store: JobStore,
    private readonly handlers: Map<string, JobHandler>,
    private readonly webhooks: WebhookSender,
    private readonly logger: Logger,
    private readonly options: JobRunnerOptions,
  ) {}

  /** Persists the job (durable when this resolves), then runs it in the background. */
  async submit(kind: string, input: unknown, options: CreateJobOptions = {}): Promise<JobRecord> {
    if (this.closing) throw new AppError('OVERLOADED', 'the job runner is shutting down', { retryAfterSeconds: 5 });
    if (!this.handlers.has(kind)) throw new AppError('INTERNAL', `no job handler for "${kind}"`);
    const job = await this.store.create(kind, input, options);
    this.schedule(job.id);
    return job;
  }

  /** Schedules jobs left queued or processing by a crash, and webhooks still owed. Returns how many. */
  async resumePending(): Promise<number> {
    const pending = await this.store.pending();
    let resumed = 0;
    for (const job of pending) if (this.schedule(job.id)) resumed++;
    return resumed;
  }

  /** Number of jobs running in this process now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Stops taking work, aborts running jobs and waits up to the grace period
   * for them to settle. Queued and aborted jobs stay pending in the store and
   * are resumed on the next start.
   */
  async close(graceMs = this.options.graceMs ?? 5000): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    const running = [...this.running.values()];
    for (const job of running) job.controller.abort(new AppError('CANCELLED', 'the job runner is shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const settled = Promise.allSettled(running.map((job) => job.done)).then(() => 'settled' as const);
    const outcome = await Promise.race([settled, graceOver]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.logger.warn({ stillRunning: this.running.size, graceMs }, 'jobs did not stop within the grace period');
  }

  private schedule(id: string): boolean {
    if (this.closing || this.scheduled.has(id)) return false;
    this.scheduled.add(id);
    this.queue.push(id);
    this.pump();
    return true;
  }

  private pump(): void {
    while (!this.closing && this.running.size < Math.max(1, this.options.concurrency) && this.queue.length > 0) {
      const id = this.queue.shift()!;
      const controller = new AbortController();
      const done = this.execute(id, controller.signal)
        .catch((error: unknown) => this.logger.error({ err: error, job: id }, 'job bookkeeping failed'))
        .finally(() => {
          this.running.delete(id);
          this.scheduled.delete(id);
          this.pump();
        });
      this.running.set(id, { controller, done });
    }
  }

  private async execute(id: string, signal: AbortSignal): Promise<void> {
    let job = await this.store.get(id);
    if (!job) {
      this.logger.warn({ job: id }, 'scheduled job is missing from the record store');
      return;
    }
    if (!isFinished(job)) {
      const outcome = await this.run(job, signal);
      if (!outcome) return; // interrupted by shutdown: left pending for the next start
      job = outcome;
    }
    if (owesWebhook(job)) await this.deliverWebhook(job, signal);
  }

  /** Runs the handler and records the outcome; null when shutdown interrupted it. */
  private async run(job: JobRecord, signal: AbortSignal): Promise<JobRecord | null> {
    const handler = this.handlers.get(job.kind);
    if (!handler) return this.store.fail(job.id, { code: 'INTERNAL', message: `no job handler for "${job.kind}"` });
    const running = await this.store.markRunning(job.id);
    let result: unknown;
    try {
      result = await handler(running.input, { signal, progress: this.progressWriter(job.id) });
    } catch (error) {
      if (signal.aborted && this.closing) {
        this.logger.info({ job: job.id }, 'job interrupted by shutdown; it will run again on the next start');
        return null;
      }
      const appError = publicError(error, this.logger, { job: job.id, kind: job.kind });
      return this.store.fail(job.id, { code: appError.code, message: appError.message });
    }
    return this.store.complete(job.id, result);
  }

  private progressWriter(id: string): (progress: JobProgress) => void {
    const intervalMs = this.options.progressIntervalMs ?? 500;
    let lastWrite = -Infinity;
    return (progress) => {
      const now = performance.now();
      if (now - lastWrite < intervalMs) return;
      lastWrite = now;
      this.store.setProgress(id, progress).catch((error: unknown) => this.logger.warn({ err: error, job: id }, 'progress write failed'));
    };
  }

  private async deliverWebhook(job: JobRecord, signal: AbortSignal): Promise<void> {
    const outcome = await this.webhooks.deliver(job.webhookUrl!, webhookEventName(job), webhookPayload(job), signal);
    // Interrupted by shutdown: the webhook stays owed and is sent on the next start.
    if (!outcome.delivered && signal.aborted && this.closing) return;
    await this.store.recordWebhook(job.id, outcome);
  }
}
