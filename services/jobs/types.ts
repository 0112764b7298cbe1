/**
 * The job mechanism's shapes: what callers see (JobRecord, the Jobs
 * interface) and the contract between the job service and its two backends
 * (the embedded durable queue and BullMQ). docs/jobs.md describes the
 * guarantees.
 */
import type { Principal } from '../../core/principal.js';

export type { JobHandler, JobHandlerContext, JobKind } from '../../core/plugin.js';

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface JobProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface JobError {
  code: string;
  message: string;
}

export interface JobRecord {
  id: string;
  kind: string;
  status: JobStatus;
  input: unknown;
  /** Set once, when the job completed. */
  result?: unknown;
  /** Set once, when the job failed for good (a cancelled job fails with code CANCELLED). */
  error?: JobError;
  /** The error of the last failed run while a retry is pending. */
  lastError?: JobError;
  progress?: JobProgress;
  /** Runs started so far: retries, and runs cut short by a crash or shutdown, each count. */
  attempts: number;
  /** A queued job does not start before this time (delayed jobs, retries waiting out their backoff). ISO 8601. */
  runAt?: string;
  /** The URL the outcome is POSTed to when the job finishes. */
  webhookUrl?: string;
  /** Who submitted it: only they (and admins) read it (Jobs.getFor); absent for jobs of no one (scheduled checks). */
  owner?: Principal;
  /** Cancellation was asked for; the job ends failed with CANCELLED. */
  cancelRequested?: boolean;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export interface SubmitOptions {
  /**
   * The job's id. Submitting again with an id that exists returns the
   * existing job instead of adding one (within the finished-job TTL).
   * Letters, digits, "_", "-" and "."; at most 128 characters.
   */
  jobId?: string;
  /** Same effect as jobId, for callers with a key of their own: the id is derived from kind and key. */
  idempotencyKey?: string;
  /** Prefix of a generated id; default "job_". */
  idPrefix?: string;
  /** Do not start before this time. */
  runAt?: Date;
  /** POST the outcome here when the job finishes (Standard Webhooks, docs/webhooks.md). */
  webhookUrl?: string;
  /** Who submits it (ctx.caller): its status is theirs, and the handler acts for them. */
  owner?: Principal;
}

export interface WaitOptions {
  /** Answer the job as it stands after this long, finished or not. */
  timeoutMs: number;
  /** Stops the wait (not the job). */
  signal?: AbortSignal;
  /** Hears the job's progress while it runs, wherever it runs. */
  onProgress?(progress: JobProgress): void;
}

/** What plugins use: submit, read and cancel jobs, from any instance. */
export interface Jobs {
  readonly backend: JobBackendName;
  submit(kind: string, input: unknown, options?: SubmitOptions): Promise<JobRecord>;
  /** Whether this instance has a handler for kind (submit fails for a kind it has not). */
  has(kind: string): boolean;
  /** Any job, whoever owns it: for the service's own bookkeeping, never a caller's read. */
  get(id: string): Promise<JobRecord | null>;
  /** The job as `viewer` may read it: null when it does not exist or is another principal's (core/principal.ts). */
  getFor(id: string, viewer: Principal | undefined): Promise<JobRecord | null>;
  /**
   * Asks the job to stop: a queued job never runs, a running one is aborted; both end failed with CANCELLED. Null for
   * an unknown id.
   */
  cancel(id: string): Promise<JobRecord | null>;
  /**
   * The jobs of `kind` not finished yet (queued or running, cancellation not asked) that `viewer` may read, oldest
   * first.
   */
  unfinishedFor(kind: string, viewer: Principal | undefined): Promise<JobRecord[]>;
  /**
   * When the most recent of `viewer`'s own jobs of `kind` completed (ISO 8601): theirs only, an admin's too; null when
   * none has (a job that failed or was cancelled does not count), or for no viewer. Kept as each job completes, so
   * it outlives the job's own record.
   */
  lastCompletedFor(kind: string, viewer: Principal | undefined): Promise<string | null>;
  /**
   * Waits for the job to finish (at most timeoutMs), woken by the backend's change notices rather
   * than by polling, so it works from any instance; answers the job as it then stands, null when unknown.
   */
  waitFor(id: string, options: WaitOptions): Promise<JobRecord | null>;
}

export type JobBackendName = 'embedded' | 'bullmq';

/** A job's final outcome, recorded once. */
export type JobOutcome = { status: 'completed'; result: unknown } | { status: 'failed'; error: JobError };

/** A job handed to the executor by a backend, for one run. */
export interface RunningJob {
  record: JobRecord;
  /** 1 + failed runs so far. */
  attempt: number;
  /** Runs that started but neither finished nor failed (crash, stall, shutdown), before this one. */
  interruptions: number;
  /** Aborted with a JobAbort reason on cancellation or shutdown. */
  signal: AbortSignal;
  /** Writes progress (not awaited; a failed write is logged). */
  progress(progress: JobProgress): void;
  /**
   * Tells the job's watchers of a progress update, wherever they are, without storing it (every update, not throttled).
   */
  announce(progress: JobProgress): void;
}

/** Why a running job's signal was aborted. */
export class JobAbort extends Error {
  constructor(readonly why: 'cancel' | 'shutdown') {
    super(why === 'cancel' ? 'the job was cancelled' : 'the instance is shutting down');
    this.name = 'JobAbort';
  }
}

/** What the executor decided for one run. */
export type RunVerdict =
  | { kind: 'finished'; outcome: JobOutcome }
  | { kind: 'retry'; error: JobError; delayMs: number }
  /** Interrupted by shutdown: back to the queue, for another instance or the next start. */
  | { kind: 'handed-back' };

export type JobExecutor = (job: RunningJob) => Promise<RunVerdict>;

export interface NewJob {
  id: string;
  kind: string;
  lane: string;
  input: unknown;
  runAt?: Date;
  webhookUrl?: string;
  owner?: Principal;
}

export interface LaneSettings {
  name: string;
  concurrency: number;
}

/**
 * A backend stores jobs and runs them: the job service above it holds the
 * kinds and decides each run's verdict; the backend keeps the records, the
 * queue, the locks and the timers. One conformance suite
 * (fixtures/job-queue-conformance.ts) runs against every backend.
 */
export interface JobBackend {
  readonly name: JobBackendName;
  /** Makes the lane known (kinds are defined before start), so get() looks there too. */
  declareLane(name: string): void;
  /** Stores the job unless one with its id exists; answers the stored job either way. Durable when it resolves. */
  add(job: NewJob): Promise<JobRecord>;
  get(id: string): Promise<JobRecord | null>;
  /** The jobs of `kind` not finished yet (queued, delayed or running), from every instance. */
  unfinished(kind: string): Promise<JobRecord[]>;
  /** Marks the job cancelled and aborts it wherever it runs; a delayed job is brought forward so it ends now. */
  cancel(id: string): Promise<JobRecord | null>;
  /** The outcome recorded for the job, if any. */
  recordedOutcome(id: string): Promise<JobOutcome | null>;
  /** Records the outcome unless one exists; answers the one that stands. */
  recordOutcome(id: string, outcome: JobOutcome): Promise<JobOutcome>;
  /**
   * Keeps `at` as the last time a job of `kind` owned by `ownerId` completed, unless a later time is kept already
   * (instances may note out of order); one small record per owner and kind, never a scan of the jobs.
   */
  noteCompleted(kind: string, ownerId: string, at: Date): Promise<void>;
  /** The time noteCompleted kept for the owner and kind; null when none was (data from before it existed too). */
  lastCompleted(kind: string, ownerId: string): Promise<Date | null>;
  /**
   * Calls onChange whenever the job may have changed (progress, outcome, cancellation), wherever it
   * runs, with each announced progress update in order; a notice may come for nothing, never go
   * missing once this resolves. Answers the unsubscribe.
   */
  watch(id: string, onChange: (announced?: JobProgress) => void): Promise<() => void>;
  /** Starts taking work for these lanes. */
  start(lanes: LaneSettings[], execute: JobExecutor): Promise<void>;
  /** Stops taking work; running jobs get graceMs to finish, then are aborted and handed back. */
  stop(graceMs: number): Promise<void>;
  close(): Promise<void>;
}
