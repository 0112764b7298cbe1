/** A durable job as the job-status endpoints show it (search and enhanced search). */
import type { JobRecord } from '../jobs/types.js';
import type { DeliveryState } from '../webhooks/webhook-deliveries.js';
import type { SearchAnswer } from './schemas.js';

/** R is the answer type the job produced (the Search API's by default). */
export function publicJob<R = SearchAnswer>(job: JobRecord, webhook: DeliveryState | null = null) {
  const view: {
    request_id: string;
    status: 'queued' | 'processing' | 'completed' | 'failed';
    created_at: string;
    updated_at: string;
    progress?: { progress: number; total?: number; message?: string };
    result?: R;
    error?: { code: string; message: string };
    webhook?: { status: DeliveryState['status']; attempts: number; webhook_id?: string; last_error?: string; delivered_at?: string; next_attempt_at?: string };
  } = { request_id: job.id, status: job.status, created_at: job.createdAt, updated_at: job.updatedAt };
  if (job.progress) view.progress = job.progress;
  if (job.result !== undefined) view.result = job.result as R;
  if (job.error) view.error = job.error;
  if (webhook) {
    view.webhook = { status: webhook.status, attempts: webhook.attempts };
    if (webhook.id) view.webhook.webhook_id = webhook.id;
    if (webhook.lastError) view.webhook.last_error = webhook.lastError;
    if (webhook.deliveredAt) view.webhook.delivered_at = webhook.deliveredAt;
    if (webhook.nextAttemptAt) view.webhook.next_attempt_at = webhook.nextAttemptAt;
  }
  return view;
}
