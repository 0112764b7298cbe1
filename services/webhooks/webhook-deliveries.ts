/**
 * Webhook delivery as durable work on the job mechanism: each message is a
 * job of kind "webhook.deliver" whose id is the message's webhook-id, in its
 * own lane (a receiver that hangs holds up only other deliveries). So a
 * delivery survives restarts, fails over between instances, is enqueued
 * once per event however often its producer runs, and its job record is the
 * delivery log: attempts, status, last error, next attempt.
 *
 * Retries: exponential backoff with jitter on network errors, 5xx and 429,
 * honouring Retry-After; no retry on other 4xx or a refusal of the outbound
 * policy. At least once: a crash during an attempt means the message is sent
 * again with the same webhook-id, for the receiver to drop.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { redactUrl } from '../../core/http/redact-url.js';
import type { Logger } from '../../core/logger.js';
import type { JobFinishListener } from '../jobs/job-service.js';
import type { JobKind, JobOutcome, JobRecord, Jobs } from '../jobs/types.js';
import { backoffDelayMs, type BackoffOptions } from '../jobs/retry-policy.js';
import type { DeliveryStatus } from './delivery-schemas.js';
import { attemptDelivery, isRetryableFailure, type WebhookMessage, type WebhookSend } from './webhook-attempt.js';

export const WEBHOOK_DELIVERY_KIND = 'webhook.deliver';
export const WEBHOOK_LANE = 'webhooks';
/** A receiver's Retry-After is honoured up to this. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

export interface WebhookDeliveryOptions {
  /** Signs messages that carry no secret of their own. */
  secret: string;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Per attempt. */
  timeoutMs: number;
  backoff: BackoffOptions;
}

/** A message as the delivery job stores it. */
interface DeliveryInput extends WebhookMessage {
  /** A secret of its own (a monitor's); the configured one otherwise. */
  secret?: string;
  /** The producer's label ("<area>:<id>"), handed to its settle listener. */
  tag?: string;
}

/** What a producer enqueues: the message, optionally its own secret and a tag for its settle listener. */
export interface OutgoingMessage extends WebhookMessage {
  secret?: string;
  tag?: string;
}

/** Told once a tagged message is delivered or has failed for good; must be idempotent (it may be told twice). */
export type SettleListener = (tag: string, state: DeliveryState & { id: string }) => Promise<void>;

export interface DeliveryState {
  /** The webhook-id (absent while the message is not built yet). */
  id?: string;
  status: DeliveryStatus;
  /** Attempts started so far. */
  attempts: number;
  lastError?: string;
  deliveredAt?: string;
  /** When the next attempt is due, while a retry waits. */
  nextAttemptAt?: string;
}

export class WebhookDeliveries {
  private readonly settleListeners = new Map<string, SettleListener>();

  constructor(
    private readonly jobs: Pick<Jobs, 'submit' | 'get'> & Partial<Pick<Jobs, 'cancel'>>,
    private readonly send: WebhookSend,
    private readonly options: WebhookDeliveryOptions,
    private readonly logger: Logger,
    /** The outbound policy's address check (FORBIDDEN_ADDRESS for a URL it would never call). */
    private readonly checkUrl: (url: string) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Refuses up front, as bad input naming `field`, a URL the outbound policy
   * would refuse at every attempt (a private address not allowed). A name
   * that does not resolve now is let through: DNS may recover by delivery time.
   */
  async assertDeliverable(url: string, field: string): Promise<void> {
    try {
      await this.checkUrl(url);
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'FORBIDDEN_ADDRESS')
        throw new AppError('INVALID_INPUT', `${field}: ${appError.message}`, { details: { field } });
    }
  }

  /** The job kind to register with the job service. */
  kind(): JobKind {
    return {
      lane: WEBHOOK_LANE,
      maxAttempts: this.options.maxAttempts,
      retryDelayMs: (error: AppError, attempt: number) => {
        if (!isRetryableFailure(error)) return null;
        const backoff = backoffDelayMs(attempt, this.options.backoff);
        const asked =
          error.retryAfterSeconds !== undefined ? Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS) : 0;
        return Math.max(backoff, asked);
      },
      run: async (input, ctx) => {
        const message = input as DeliveryInput;
        try {
          const status = await attemptDelivery(this.send, message, message.secret ?? this.options.secret, {
            timeoutMs: this.options.timeoutMs,
            signal: ctx.signal,
          });
          this.logger.info(
            { webhookId: message.id, url: redactUrl(message.url), attempt: ctx.attempt, status },
            'webhook delivered',
          );
          return { status };
        } catch (error) {
          this.logger.warn(
            { webhookId: message.id, url: redactUrl(message.url), attempt: ctx.attempt, err: (error as Error).message },
            'webhook attempt failed',
          );
          throw error;
        }
      },
    };
  }

  /** Enqueues the message once: a second call with the same id changes nothing. */
  async enqueue(message: OutgoingMessage): Promise<DeliveryState> {
    const input: DeliveryInput = { id: message.id, url: message.url, body: message.body };
    if (message.headers && Object.keys(message.headers).length > 0) input.headers = message.headers;
    if (message.bodySignatureHeader) input.bodySignatureHeader = message.bodySignatureHeader;
    if (message.secret) input.secret = message.secret;
    if (message.tag) input.tag = message.tag;
    return deliveryState(await this.jobs.submit(WEBHOOK_DELIVERY_KIND, input, { jobId: message.id }));
  }

  /** Cancels a message not yet delivered (its producer's subject is gone); null when unknown. */
  async cancel(id: string): Promise<DeliveryState | null> {
    const job = await this.jobs.get(id);
    if (!job || job.kind !== WEBHOOK_DELIVERY_KIND) return null;
    const cancelled = this.jobs.cancel ? await this.jobs.cancel(id) : job;
    return cancelled ? deliveryState(cancelled) : null;
  }

  /**
   * Tells `listener` when a message tagged "<area>:…" settles (delivered, or failed for good). Before the job service
   * starts.
   */
  onSettled(area: string, listener: SettleListener): void {
    this.settleListeners.set(area, listener);
  }

  /** The job finish listener that tells producers their messages settled (registered by the composition root). */
  settledListener(): JobFinishListener {
    return async (job, outcome) => {
      if (job.kind !== WEBHOOK_DELIVERY_KIND) return;
      const tag = (job.input as DeliveryInput | null)?.tag;
      const listener = tag ? this.settleListeners.get(tag.split(':')[0]!) : undefined;
      if (!tag || !listener) return;
      await listener(tag, { ...settledState(job, outcome), id: job.id });
    };
  }

  /** The delivery log entry of a message, from any instance; null when unknown (or expired). */
  async state(id: string): Promise<DeliveryState | null> {
    const job = await this.jobs.get(id);
    return job && job.kind === WEBHOOK_DELIVERY_KIND ? deliveryState(job) : null;
  }
}

export function deliveryState(job: JobRecord): DeliveryState {
  const state: DeliveryState = {
    id: job.id,
    status: job.status === 'completed' ? 'delivered' : job.status === 'failed' ? 'failed' : 'pending',
    attempts: job.attempts,
  };
  const lastError = job.error ?? job.lastError;
  if (lastError)
    state.lastError =
      lastError.code === 'UPSTREAM_FAILED' && lastError.message.startsWith('HTTP ')
        ? lastError.message
        : `${lastError.code}: ${lastError.message}`;
  if (job.status === 'completed' && job.finishedAt) state.deliveredAt = job.finishedAt;
  if (state.status === 'pending' && job.runAt) state.nextAttemptAt = job.runAt;
  return state;
}

/** The final state of a delivery from its job and the outcome just recorded. */
function settledState(job: JobRecord, outcome: JobOutcome): DeliveryState {
  const finishedAt = new Date().toISOString();
  const record: JobRecord =
    outcome.status === 'completed'
      ? { ...job, status: 'completed', result: outcome.result, finishedAt }
      : { ...job, status: 'failed', error: outcome.error, finishedAt };
  const { nextAttemptAt: _next, ...state } = deliveryState(record);
  return state;
}
