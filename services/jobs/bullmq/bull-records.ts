/** BullMQ's job hash as a JobRecord, and job errors in BullMQ's one failedReason string. */
import type { Job } from 'bullmq';
import type { Principal } from '../../../core/principal.js';
import type { JobError, JobProgress, JobRecord, JobStatus } from '../types.js';

/** What a job carries in BullMQ besides its name (the kind). */
export interface BullJobData {
  input: unknown;
  webhookUrl?: string;
  owner?: Principal;
}

/** A completed job's return value, wrapped so that 0, false and null survive. */
export interface StoredResult {
  value: unknown;
}

const STATUS_OF_STATE: Record<string, JobStatus> = {
  waiting: 'queued',
  prioritized: 'queued',
  delayed: 'queued',
  'waiting-children': 'queued',
  active: 'processing',
  completed: 'completed',
  failed: 'failed',
};

/** "CODE: message", so the code survives BullMQ's string. */
export function encodeJobError(error: JobError): string {
  return `${error.code}: ${error.message}`;
}

export function decodeJobError(reason: string): JobError {
  const match = /^([A-Z][A-Z_]*): ([\s\S]*)$/.exec(reason);
  return match ? { code: match[1]!, message: match[2]! } : { code: 'INTERNAL', message: reason };
}

function iso(ms: number | undefined): string | undefined {
  return ms ? new Date(ms).toISOString() : undefined;
}

function isProgress(value: unknown): value is JobProgress {
  return typeof value === 'object' && value !== null && typeof (value as JobProgress).progress === 'number';
}

export function toJobRecord(
  job: Job<BullJobData>,
  state: string,
  cancelRequested: boolean,
  decode: (reason: string) => JobError,
): JobRecord {
  const status = STATUS_OF_STATE[state] ?? 'queued';
  const createdAt = new Date(job.timestamp).toISOString();
  const record: JobRecord = {
    id: job.id!,
    kind: job.name,
    status,
    input: job.data.input,
    attempts: job.attemptsStarted,
    createdAt,
    updatedAt: iso(Math.max(job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0)) ?? createdAt,
  };
  if (job.data.webhookUrl) record.webhookUrl = job.data.webhookUrl;
  if (job.data.owner) record.owner = job.data.owner;
  if (cancelRequested) record.cancelRequested = true;
  if (status === 'completed') record.result = (job.returnvalue as StoredResult | null)?.value ?? null;
  if (status === 'failed') record.error = decode(job.failedReason ?? 'INTERNAL: the job failed');
  else if (job.failedReason) record.lastError = decode(job.failedReason);
  if (status === 'completed' || status === 'failed') record.finishedAt = iso(job.finishedOn) ?? record.updatedAt;
  else if (isProgress(job.progress)) record.progress = job.progress;
  // A delayed job's due time; a retry's delay counts from its last failure, which BullMQ does not keep.
  if (state === 'delayed' && job.attemptsMade === 0 && job.delay > 0)
    record.runAt = new Date(job.timestamp + job.delay).toISOString();
  return record;
}
