/**
 * The webhook of an asynchronous job (a search with async_mode and a
 * webhook_url): when the job finishes, its outcome is enqueued as one
 * message whose webhook-id is derived from the job and the event, so a
 * job run again after a crash enqueues nothing new.
 *
 * Payload: `{ event: "<area>.completed" | "<area>.failed", request_id, status, result | error, timestamp }`
 * (docs/webhooks.md).
 */
import { createHash } from 'node:crypto';
import type { JobFinishListener } from '../jobs/job-service.js';
import type { JobOutcome, JobRecord } from '../jobs/types.js';
import type { DeliveryState, WebhookDeliveries } from './webhook-deliveries.js';

export interface JobWebhookPayload {
  event: string;
  request_id: string;
  status: 'completed' | 'failed';
  result?: unknown;
  error?: { code: string; message: string };
  /** ISO 8601, when the outcome was recorded. */
  timestamp: string;
}

/** "search.web" + completed → "search.completed": the area, then the outcome. */
export function jobEventName(kind: string, status: JobOutcome['status']): string {
  const area = kind.split('.')[0] || kind;
  return `${area}.${status}`;
}

/** The webhook-id of a job's event: stable, so receivers can drop repeats. */
export function jobMessageId(jobId: string, event: string): string {
  return `msg_${createHash('sha256').update(`${jobId}\n${event}`).digest('hex').slice(0, 26)}`;
}

export function jobWebhookPayload(
  job: Pick<JobRecord, 'id' | 'kind'>,
  outcome: JobOutcome,
  at = new Date(),
): JobWebhookPayload {
  const payload: JobWebhookPayload = {
    event: jobEventName(job.kind, outcome.status),
    request_id: job.id,
    status: outcome.status,
    timestamp: at.toISOString(),
  };
  if (outcome.status === 'completed') payload.result = outcome.result;
  else payload.error = outcome.error;
  return payload;
}

/** The finish listener that enqueues a job's webhook. */
export function jobWebhookListener(deliveries: WebhookDeliveries): JobFinishListener {
  return async (job, outcome) => {
    if (!job.webhookUrl) return;
    const payload = jobWebhookPayload(job, outcome);
    await deliveries.enqueue({
      id: jobMessageId(job.id, payload.event),
      url: job.webhookUrl,
      body: JSON.stringify(payload),
    });
  };
}

/** The delivery state of a job's webhook: pending until the job finishes and its message is sent. */
export async function jobWebhookState(deliveries: WebhookDeliveries, job: JobRecord): Promise<DeliveryState | null> {
  if (!job.webhookUrl) return null;
  if (job.status !== 'completed' && job.status !== 'failed') return { status: 'pending', attempts: 0 };
  const id = jobMessageId(job.id, jobEventName(job.kind, job.status));
  return (await deliveries.state(id)) ?? { id, status: 'pending', attempts: 0 };
}
