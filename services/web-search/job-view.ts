/** A durable job as the job-status endpoints show it (search and enhanced search). */
import type { JobRecord } from '../jobs/job-store.js';
import type { SearchAnswer } from './schemas.js';

/** R is the answer type the job produced (the Search API's by default). */
export function publicJob<R = SearchAnswer>(job: JobRecord) {
  const view: {
    request_id: string;
    status: 'queued' | 'processing' | 'completed' | 'failed';
    created_at: string;
    updated_at: string;
    progress?: { progress: number; total?: number; message?: string };
    result?: R;
    error?: { code: string; message: string };
    webhook?: { status: string; attempts: number; last_error?: string; delivered_at?: string };
  } = { request_id: job.id, status: job.status, created_at: job.createdAt, updated_at: job.updatedAt };
  if (job.progress) view.progress = job.progress;
  if (job.result !== undefined) view.result = job.result as R;
  if (job.error) view.error = job.error;
  if (job.webhook) {
    view.webhook = { status: job.webhook.status, attempts: job.webhook.attempts };
    if (job.webhook.lastError) view.webhook.last_error = job.webhook.lastError;
    if (job.webhook.deliveredAt) view.webhook.delivered_at = job.webhook.deliveredAt;
  }
  return view;
}

