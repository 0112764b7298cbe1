/**
 * Durable async jobs. Every state change is written to the record store
 * before the method resolves, so an accepted job survives a crash; jobs not
 * finished (or whose webhook is still owed) are listed by pending() and run
 * again on the next start.
 *
 * Changes to one job are serialised within this process, so a late progress
 * write can never overwrite a job's final state.
 */
import { randomBytes } from 'node:crypto';
import type { Keyv } from 'keyv';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { KeyedLock } from '../../core/stores/keyed-lock.js';
import { addId, listIds, removeId } from '../../core/stores/record-index.js';

/** What the job store emits after every durable state change of a job. */
export type JobEvents = {
  'job.updated': (job: JobRecord) => void;
};

/** The part of the event bus the store needs. */
export interface JobEventSink {
  emit(event: 'job.updated', job: JobRecord): unknown;
}

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface JobProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface JobWebhookState {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError?: string;
  deliveredAt?: string;
}

export interface JobRecord {
  id: string;
  kind: string;
  status: JobStatus;
  input: unknown;
  result?: unknown;
  error?: { code: string; message: string };
  webhookUrl?: string;
  webhook?: JobWebhookState;
  progress?: JobProgress;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

export interface CreateJobOptions {
  webhookUrl?: string;
  /** Defaults to "job_"; the search area uses "req_". */
  idPrefix?: string;
}

/** Index of jobs accepted but not finished, or finished with a webhook still owed. */
const PENDING_COLLECTION = 'jobs:pending';

export function isFinished(job: JobRecord): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

export function owesWebhook(job: JobRecord): boolean {
  return job.webhookUrl !== undefined && job.webhook?.status === 'pending';
}

export class JobStore {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly records: Keyv,
    private readonly events: JobEventSink,
    private readonly logger: Logger,
  ) {}

  async create(kind: string, input: unknown, options: CreateJobOptions = {}): Promise<JobRecord> {
    const now = new Date().toISOString();
    const job: JobRecord = {
      id: `${options.idPrefix ?? 'job_'}${randomBytes(12).toString('hex')}`,
      kind,
      status: 'queued',
      input,
      createdAt: now,
      updatedAt: now,
    };
    if (options.webhookUrl) {
      job.webhookUrl = options.webhookUrl;
      job.webhook = { status: 'pending', attempts: 0 };
    }
    // Record first, index second: a crash in between leaves an orphan record
    // for a job whose id was never handed out, never an index entry without a job.
    await this.records.set(recordKey(job.id), job);
    await addId(this.records, PENDING_COLLECTION, job.id);
    this.announce(job);
    return job;
  }

  async get(id: string): Promise<JobRecord | null> {
    return ((await this.records.get(recordKey(id))) as JobRecord | undefined) ?? null;
  }

  async markRunning(id: string): Promise<JobRecord> {
    return this.change(id, (job) => (isFinished(job) ? null : { ...job, status: 'processing' }));
  }

  /** Advisory: ignored once the job has finished. */
  async setProgress(id: string, progress: JobProgress): Promise<JobRecord> {
    return this.change(id, (job) => (isFinished(job) ? null : { ...job, progress }));
  }

  async complete(id: string, result: unknown): Promise<JobRecord> {
    return this.finish(id, { status: 'completed', result });
  }

  async fail(id: string, error: { code: string; message: string }): Promise<JobRecord> {
    return this.finish(id, { status: 'failed', error: { code: error.code, message: error.message } });
  }

  /** Adds one delivery run's outcome to the job's webhook state. */
  async recordWebhook(id: string, outcome: { delivered: boolean; attempts: number; lastError?: string }): Promise<JobRecord> {
    return this.change(id, (job) => {
      const webhook: JobWebhookState = {
        status: outcome.delivered ? 'delivered' : 'failed',
        attempts: (job.webhook?.attempts ?? 0) + outcome.attempts,
      };
      if (outcome.delivered) webhook.deliveredAt = new Date().toISOString();
      else if (outcome.lastError) webhook.lastError = outcome.lastError;
      return { ...job, webhook };
    });
  }

  /** Jobs accepted but not finished, or finished with a webhook still owed; oldest first. */
  async pending(): Promise<JobRecord[]> {
    const ids = await listIds(this.records, PENDING_COLLECTION);
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    const pending: JobRecord[] = [];
    for (const job of jobs) {
      if (!job) continue;
      if (isFinished(job) && !owesWebhook(job)) {
        // A crash between the final write and the index update: tidy up.
        await removeId(this.records, PENDING_COLLECTION, job.id);
        continue;
      }
      pending.push(job);
    }
    return pending;
  }

  private async finish(id: string, outcome: Pick<JobRecord, 'status' | 'result' | 'error'>): Promise<JobRecord> {
    return this.change(id, (job) => {
      if (isFinished(job)) {
        this.logger.warn({ job: id, status: job.status, attempted: outcome.status }, 'job already finished; keeping its first outcome');
        return null;
      }
      const next: JobRecord = { ...job, ...outcome };
      delete next.progress;
      return next;
    });
  }

  /**
   * Read, change, write, under the job's lock. `apply` returns null to leave
   * the job as it is. The pending index is updated after the record, so a
   * crash in between only leaves an entry that pending() tidies.
   */
  private async change(id: string, apply: (job: JobRecord) => JobRecord | null): Promise<JobRecord> {
    return this.lock.run(id, async () => {
      const job = await this.get(id);
      if (!job) throw new AppError('NOT_FOUND', `no job ${id}`);
      const changed = apply(job);
      if (!changed) return job;
      const next: JobRecord = { ...changed, updatedAt: new Date().toISOString() };
      await this.records.set(recordKey(id), next);
      if (isFinished(next) && !owesWebhook(next)) await removeId(this.records, PENDING_COLLECTION, id);
      this.announce(next);
      return next;
    });
  }

  /** A throwing listener must not turn a durable write into a failed call. */
  private announce(job: JobRecord): void {
    try {
      this.events.emit('job.updated', job);
    } catch (error) {
      this.logger.error({ err: error, job: job.id }, 'a job.updated listener threw');
    }
  }
}

function recordKey(id: string): string {
  return `job:${id}`;
}
