/**
 * The public view of a finished job sent to its webhook, e.g. for a search:
 * `{ event: 'search.completed', request_id, status, result, timestamp }`.
 */
import type { JobRecord } from './job-store.js';

export interface JobWebhookPayload {
  event: string;
  request_id: string;
  status: 'completed' | 'failed';
  result?: unknown;
  error?: { code: string; message: string };
  /** ISO 8601, when the payload was built. */
  timestamp: string;
}

/** "search.web" → "search.completed": the area, then the outcome. */
export function webhookEventName(job: JobRecord): string {
  const area = job.kind.split('.')[0] || job.kind;
  return `${area}.${job.status === 'completed' ? 'completed' : 'failed'}`;
}

export function webhookPayload(job: JobRecord): JobWebhookPayload {
  const payload: JobWebhookPayload = {
    event: webhookEventName(job),
    request_id: job.id,
    status: job.status === 'completed' ? 'completed' : 'failed',
    timestamp: new Date().toISOString(),
  };
  if (job.status === 'completed') payload.result = job.result ?? null;
  else payload.error = job.error ?? { code: 'INTERNAL', message: 'the job failed' };
  return payload;
}
