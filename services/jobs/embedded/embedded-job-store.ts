/**
 * The embedded backend's records, on the keyv record store (SQLite under the
 * data directory). Every state change is written before the method
 * resolves, so an accepted job survives a crash; jobs not finished are kept
 * in a pending index and scheduled again on the next start. A finished job is
 * kept for the configured TTL, then expires.
 *
 * Changes to one job are serialised within this process, which is enough:
 * a SQLite data directory belongs to one process.
 */
import type { Keyv } from 'keyv';
import { AppError } from '../../../core/errors.js';
import { KeyedLock } from '../../../core/stores/keyed-lock.js';
import { addId, listIds, removeId } from '../../../core/stores/record-index.js';
import type { JobError, JobOutcome, JobProgress, JobRecord, NewJob } from '../types.js';

/** A job as stored: the public record plus what scheduling needs. */
export interface StoredJob extends JobRecord {
  lane: string;
  /** Runs that ended in a failure (the next run is attempt failures + 1). */
  failures: number;
  /** Recorded before the job is marked finished; the first one stands. */
  outcome?: JobOutcome;
}

const PENDING_COLLECTION = 'jobs:pending';
/** The version of a last-completion record's shape (a record that is missing reads as no completion). */
const COMPLETION_RECORD_VERSION = 1;

/** The last time one owner's job of one kind completed. */
interface CompletionRecord {
  v: number;
  at: string;
}

export function isStoredFinished(job: JobRecord): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

export class EmbeddedJobStore {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly records: Keyv,
    /** How long a finished job stays readable. */
    private readonly keepFinishedMs: number,
  ) {}

  /** Creates the job unless its id exists; answers the stored one either way. */
  async add(job: NewJob): Promise<StoredJob> {
    return this.lock.run(job.id, async () => {
      const existing = await this.get(job.id);
      if (existing) return existing;
      const now = new Date().toISOString();
      const stored: StoredJob = {
        id: job.id,
        kind: job.kind,
        lane: job.lane,
        status: 'queued',
        input: job.input,
        attempts: 0,
        failures: 0,
        createdAt: now,
        updatedAt: now,
      };
      if (job.runAt) stored.runAt = job.runAt.toISOString();
      if (job.webhookUrl) stored.webhookUrl = job.webhookUrl;
      if (job.owner) stored.owner = job.owner;
      // Record first, index second: a crash in between leaves a record nobody was told about, never an index entry
      // without a job.
      await this.records.set(recordKey(job.id), stored);
      await addId(this.records, PENDING_COLLECTION, job.id);
      return stored;
    });
  }

  async get(id: string): Promise<StoredJob | null> {
    const stored = (await this.records.get(recordKey(id))) as StoredJob | undefined;
    // Records written before lanes and attempt counts existed read as a first run in the default lane.
    return stored
      ? { ...stored, lane: stored.lane ?? 'default', attempts: stored.attempts ?? 0, failures: stored.failures ?? 0 }
      : null;
  }

  /** Counts the run in; null when the job is gone or already finished. */
  async markRunning(id: string): Promise<StoredJob | null> {
    return this.changeIfPresent(id, (job) => {
      if (isStoredFinished(job)) return null;
      const { runAt: _runAt, ...rest } = job;
      return { ...rest, status: 'processing', attempts: job.attempts + 1 };
    });
  }

  /** Advisory: ignored once the job has finished. */
  async setProgress(id: string, progress: JobProgress): Promise<void> {
    await this.changeIfPresent(id, (job) => (isStoredFinished(job) ? null : { ...job, progress }));
  }

  async recordOutcome(id: string, outcome: JobOutcome): Promise<JobOutcome> {
    const job = await this.change(id, (current) => (current.outcome ? null : { ...current, outcome }));
    return job.outcome ?? outcome;
  }

  async finish(id: string, outcome: JobOutcome): Promise<StoredJob | null> {
    return this.changeIfPresent(id, (job) => {
      if (isStoredFinished(job)) return null;
      const { progress: _progress, lastError: _lastError, runAt: _runAt, ...rest } = job;
      const now = new Date().toISOString();
      return outcome.status === 'completed'
        ? { ...rest, status: 'completed', result: outcome.result, finishedAt: now }
        : { ...rest, status: 'failed', error: outcome.error, finishedAt: now };
    });
  }

  /** The run failed and will be retried at `runAt`. */
  async retryLater(id: string, error: JobError, runAt: Date): Promise<StoredJob | null> {
    return this.changeIfPresent(id, (job) =>
      isStoredFinished(job)
        ? null
        : { ...job, status: 'queued', lastError: error, failures: job.failures + 1, runAt: runAt.toISOString() },
    );
  }

  /** The run was interrupted by shutdown: queued again, from the start. */
  async handBack(id: string): Promise<StoredJob | null> {
    return this.changeIfPresent(id, (job) => (isStoredFinished(job) ? null : { ...job, status: 'queued' }));
  }

  /** Marks the job cancelled; a delayed one becomes due now so it ends at once. */
  async requestCancel(id: string): Promise<StoredJob | null> {
    return this.changeIfPresent(id, (job) => {
      if (isStoredFinished(job) || job.cancelRequested) return null;
      const { runAt: _runAt, ...rest } = job;
      return { ...rest, cancelRequested: true };
    });
  }

  /** Keeps the later of `at` and the time already kept; kept for good, one small record per owner and kind. */
  async noteCompleted(kind: string, ownerId: string, at: Date): Promise<void> {
    const key = completionKey(kind, ownerId);
    await this.lock.run(key, async () => {
      const kept = await this.lastCompleted(kind, ownerId);
      if (kept && kept >= at) return;
      await this.records.set(key, { v: COMPLETION_RECORD_VERSION, at: at.toISOString() } satisfies CompletionRecord);
    });
  }

  async lastCompleted(kind: string, ownerId: string): Promise<Date | null> {
    const stored = (await this.records.get(completionKey(kind, ownerId))) as CompletionRecord | undefined;
    return stored ? new Date(stored.at) : null;
  }

  /** Jobs accepted and not finished, oldest first. */
  async pending(): Promise<StoredJob[]> {
    const ids = await listIds(this.records, PENDING_COLLECTION);
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    const pending: StoredJob[] = [];
    for (const [i, job] of jobs.entries()) {
      if (!job || isStoredFinished(job)) {
        // A crash between the final write and the index update: tidy up.
        await removeId(this.records, PENDING_COLLECTION, ids[i]!);
        continue;
      }
      pending.push(job);
    }
    return pending;
  }

  private async changeIfPresent(id: string, apply: (job: StoredJob) => StoredJob | null): Promise<StoredJob | null> {
    try {
      return await this.change(id, apply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /**
   * Read, change, write, under the job's lock; `apply` returns null to leave
   * the job as it is. A finished job gets its TTL and leaves the pending
   * index (after the record, so a crash in between leaves an entry pending() tidies).
   */
  private async change(id: string, apply: (job: StoredJob) => StoredJob | null): Promise<StoredJob> {
    return this.lock.run(id, async () => {
      const job = await this.get(id);
      if (!job) throw new AppError('NOT_FOUND', `no job ${id}`);
      const changed = apply(job);
      if (!changed) return job;
      const next: StoredJob = { ...changed, updatedAt: new Date().toISOString() };
      if (isStoredFinished(next)) {
        await this.records.set(recordKey(id), next, this.keepFinishedMs);
        await removeId(this.records, PENDING_COLLECTION, id);
      } else {
        await this.records.set(recordKey(id), next);
      }
      return next;
    });
  }
}

function recordKey(id: string): string {
  return `job:${id}`;
}

function completionKey(kind: string, ownerId: string): string {
  return `jobs:completed:${kind}:${ownerId}`;
}

/** The public record of a stored job. */
export function publicRecord(job: StoredJob): JobRecord {
  const { lane: _lane, failures: _failures, outcome: _outcome, ...record } = job;
  return record;
}
