/**
 * A durable job as the search areas show it (search and enhanced search),
 * on the one job surface (services/jobs/job-capability.ts): the 202 answer
 * that accepts it and the status view. Statuses use the vocabulary clients of
 * the original service know: a stored job not yet started is `pending` (the
 * store's `queued`); both ids are given, and results sit at the top level too.
 */
import type { z } from 'zod';
import { redactUrl } from '../../core/http/redact-url.js';
import type { JobSubmission, JobWireForm } from '../jobs/job-capability.js';
import type { JobRecord } from '../jobs/types.js';
import { jobWebhookState } from '../webhooks/job-webhooks.js';
import type { DeliveryState, WebhookDeliveries } from '../webhooks/webhook-deliveries.js';
import { asyncAcceptedSchema, type AsyncAccepted, type jobStatusOutputSchema, type SearchAnswer } from './schemas.js';

type PublicStatus = 'pending' | 'processing' | 'completed' | 'failed';

function publicStatus(status: JobRecord['status']): PublicStatus {
  return status === 'queued' ? 'pending' : status;
}

/** The answer to an accepted async request: both ids, the status and where to poll. */
function acceptedAnswer(job: JobRecord, statusUrl: string): AsyncAccepted {
  const status = publicStatus(job.status);
  const answer: AsyncAccepted = {
    request_id: job.id,
    job_id: job.id,
    // Accepted jobs can only be pending or already running at this point.
    status: status === 'pending' ? 'pending' : 'processing',
    status_url: statusUrl,
  };
  // Echoed to confirm where the answer goes, without the credentials it may carry.
  if (job.webhookUrl) answer.webhook_url = redactUrl(job.webhookUrl);
  return answer;
}

/** The Search API's job form; `status` is the status view's schema (the enhanced area's has its own result). */
export function searchJobForm<S extends typeof jobStatusOutputSchema>(
  webhooks: WebhookDeliveries,
  status: S,
): JobWireForm<typeof asyncAcceptedSchema, S> {
  return {
    accepted: asyncAcceptedSchema,
    statusUrlField: 'status_url',
    toAccepted: acceptedAnswer,
    status,
    toStatus: async (job) => publicJob(job, await jobWebhookState(webhooks, job)) as z.infer<S>,
  };
}

/**
 * async_mode: the request (without its async fields) becomes the job; a webhook_url is checked
 * now and told when the job ends.
 */
export async function searchJobSubmission(
  webhooks: WebhookDeliveries,
  input: { webhook_url?: string },
): Promise<JobSubmission> {
  if (input.webhook_url) await webhooks.assertDeliverable(input.webhook_url, 'webhook_url');
  return {
    input: { ...input, async_mode: false, webhook_url: undefined },
    ...(input.webhook_url ? { webhookUrl: input.webhook_url } : {}),
  };
}

/** The spec gives webhook_url no role without async_mode: it is accepted, unused, and the answer says so. */
export function noteUnusedWebhook<A extends Pick<SearchAnswer, 'search_metadata'>>(
  answer: A,
  webhookUrl: string | undefined,
): A {
  if (webhookUrl) answer.search_metadata = { ...answer.search_metadata, webhook_unused: true };
  return answer;
}

/** R is the answer type the job produced (the Search API's by default). */
function publicJob<R extends Pick<SearchAnswer, 'results'> = SearchAnswer>(
  job: JobRecord,
  webhook: DeliveryState | null = null,
) {
  const view: {
    request_id: string;
    job_id: string;
    status: PublicStatus;
    created_at: string;
    updated_at: string;
    progress?: { progress: number; total?: number; message?: string };
    results?: R['results'];
    result?: R;
    error?: { code: string; message: string };
    webhook?: NonNullable<z.infer<typeof jobStatusOutputSchema>['webhook']>;
  } = {
    request_id: job.id,
    job_id: job.id,
    status: publicStatus(job.status),
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
  if (job.progress) view.progress = job.progress;
  if (job.result !== undefined) {
    const result = job.result as R;
    // Clients of the original service read results at the top level of the status answer.
    if (Array.isArray(result?.results)) view.results = result.results;
    view.result = result;
  }
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
