/**
 * A durable job as the search areas show it: the 202 answer that accepts it
 * and the status view (search and enhanced search). Statuses use the
 * vocabulary clients of the original service know: a stored job not yet
 * started is `pending` (the store's `queued`).
 */
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { redactUrl } from '../../core/http/redact-url.js';
import { statusUrl } from '../jobs/job-view.js';
import type { JobRecord, Jobs } from '../jobs/types.js';
import type { DeliveryState, WebhookDeliveries } from '../webhooks/webhook-deliveries.js';
import type { AsyncAccepted, SearchAnswer } from './schemas.js';

type PublicStatus = 'pending' | 'processing' | 'completed' | 'failed';

function publicStatus(status: JobRecord['status']): PublicStatus {
  return status === 'queued' ? 'pending' : status;
}

/** The answer to an accepted async request: both ids, the status and where to poll. */
function acceptedAnswer(job: JobRecord, statusPath: string, baseUrl: string | undefined, webhookUrl: string | undefined): AsyncAccepted {
  const status = publicStatus(job.status);
  const answer: AsyncAccepted = {
    request_id: job.id,
    job_id: job.id,
    // Accepted jobs can only be pending or already running at this point.
    status: status === 'pending' ? 'pending' : 'processing',
    status_url: statusUrl(baseUrl, statusPath),
  };
  // Echoed to confirm where the answer goes, without the credentials it may carry.
  if (webhookUrl) answer.webhook_url = redactUrl(webhookUrl);
  return answer;
}

/** The spec gives webhook_url no role without async_mode: it is accepted, unused, and the answer says so. */
export function noteUnusedWebhook<A extends Pick<SearchAnswer, 'search_metadata'>>(answer: A, webhookUrl: string | undefined): A {
  if (webhookUrl) answer.search_metadata = { ...answer.search_metadata, webhook_unused: true };
  return answer;
}

/**
 * async_mode: the request (without its async fields) becomes a job with a `req_` id, answered at
 * once with where to poll; a webhook_url is checked now and told when the job ends.
 */
export async function submitSearchJob(
  deps: { jobs: Jobs; webhooks: WebhookDeliveries },
  kind: string,
  input: { webhook_url?: string },
  statusPath: (jobId: string) => string,
  baseUrl: string | undefined,
  owner: Principal | undefined,
): Promise<AsyncAccepted> {
  if (!deps.jobs.has(kind)) throw new AppError('UNAVAILABLE', `async_mode is not available on this installation (no job handler for "${kind}")`);
  if (input.webhook_url) await deps.webhooks.assertDeliverable(input.webhook_url, 'webhook_url');
  const job = await deps.jobs.submit(kind, { ...input, async_mode: false, webhook_url: undefined }, {
    idPrefix: 'req_',
    ...(owner ? { owner } : {}),
    ...(input.webhook_url ? { webhookUrl: input.webhook_url } : {}),
  });
  return acceptedAnswer(job, statusPath(job.id), baseUrl, input.webhook_url);
}

/** R is the answer type the job produced (the Search API's by default). */
export function publicJob<R extends Pick<SearchAnswer, 'results'> = SearchAnswer>(job: JobRecord, webhook: DeliveryState | null = null) {
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
    webhook?: { status: DeliveryState['status']; attempts: number; webhook_id?: string; last_error?: string; delivered_at?: string; next_attempt_at?: string };
  } = { request_id: job.id, job_id: job.id, status: publicStatus(job.status), created_at: job.createdAt, updated_at: job.updatedAt };
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
