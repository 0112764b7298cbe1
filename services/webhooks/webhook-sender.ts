/**
 * Signed webhook delivery with retries. Requests go through the function
 * given (the OutboundClient's fetch), so webhooks obey the outbound policy;
 * that function is asked not to retry, the schedule here decides.
 * The scheme is documented in docs/webhooks.md.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { redactUrl, redactUrlsIn } from '../../core/http/redact-url.js';
import { toAppError, type ErrorCode } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

export interface WebhookRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  purpose: 'webhook';
  timeoutMs?: number;
  retries?: number;
  signal?: AbortSignal;
}

export type WebhookSend = (request: WebhookRequest) => Promise<{ status: number }>;

export interface WebhookSenderOptions {
  secret: string;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait before retry n is backoffMs[n-1]; the last value repeats. */
  backoffMs: number[];
  /** Per attempt; defaults to 10 s. */
  timeoutMs?: number;
}

export interface DeliveryOutcome {
  delivered: boolean;
  attempts: number;
  lastError?: string;
}

export const SIGNATURE_HEADERS = {
  event: 'X-Quarry-Event',
  delivery: 'X-Quarry-Delivery',
  timestamp: 'X-Quarry-Timestamp',
  signature: 'X-Quarry-Signature',
} as const;

/** Errors of ours that another attempt cannot fix. */
const FINAL_ERROR_CODES = new Set<ErrorCode>(['FORBIDDEN_ADDRESS', 'INVALID_INPUT', 'CANCELLED']);
const DEFAULT_TIMEOUT_MS = 10_000;

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` */
export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}

/**
 * For receivers and tests: true when the signature matches the body and the
 * timestamp is within `toleranceSeconds` of now (which limits replays).
 * Header names are matched case-insensitively.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  toleranceSeconds = 300,
): boolean {
  const timestampText = headerValue(headers, SIGNATURE_HEADERS.timestamp);
  const signature = headerValue(headers, SIGNATURE_HEADERS.signature);
  if (!timestampText || !signature || !/^\d+$/.test(timestampText)) return false;
  const timestamp = Number(timestampText);
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** 4xx other than 408 and 429 mean the receiver refuses this payload: sending it again will not help. */
function isRetryableStatus(status: number): boolean {
  return status < 400 || status >= 500 || status === 408 || status === 429;
}

export class WebhookSender {
  constructor(
    private readonly send: WebhookSend,
    private readonly options: WebhookSenderOptions,
    private readonly logger: Logger,
  ) {}

  /**
   * Sends `payload` as JSON until it is accepted (2xx), refused for good, or
   * maxAttempts is reached. The delivery id stays the same across attempts so
   * receivers can drop duplicates. An aborted `signal` stops further attempts.
   */
  async deliver(url: string, event: string, payload: unknown, signal?: AbortSignal): Promise<DeliveryOutcome> {
    const body = JSON.stringify(payload);
    const deliveryId = randomUUID();
    const maxAttempts = Math.max(1, this.options.maxAttempts);
    let lastError = 'not attempted';
    let attempts = 0;
    while (attempts < maxAttempts && !signal?.aborted) {
      attempts++;
      const verdict = await this.attempt(url, event, deliveryId, body, signal);
      if (verdict.delivered) {
        this.logger.debug({ url: redactUrl(url), event, deliveryId, attempts }, 'webhook delivered');
        return { delivered: true, attempts };
      }
      lastError = verdict.error;
      this.logger.warn({ url: redactUrl(url), event, deliveryId, attempt: attempts, lastError, final: !verdict.retry }, 'webhook delivery failed');
      if (!verdict.retry) break;
      if (attempts < maxAttempts) await sleep(this.backoff(attempts), signal);
    }
    return { delivered: false, attempts, lastError };
  }

  private async attempt(
    url: string,
    event: string,
    deliveryId: string,
    body: string,
    signal: AbortSignal | undefined,
  ): Promise<{ delivered: true } | { delivered: false; retry: boolean; error: string }> {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await this.send({
        url,
        method: 'POST',
        purpose: 'webhook',
        retries: 0,
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        body,
        headers: {
          'Content-Type': 'application/json',
          [SIGNATURE_HEADERS.event]: event,
          [SIGNATURE_HEADERS.delivery]: deliveryId,
          [SIGNATURE_HEADERS.timestamp]: String(timestamp),
          [SIGNATURE_HEADERS.signature]: signWebhook(this.options.secret, timestamp, body),
        },
        ...(signal ? { signal } : {}),
      });
      if (response.status >= 200 && response.status < 300) return { delivered: true };
      return { delivered: false, retry: isRetryableStatus(response.status), error: `HTTP ${response.status}` };
    } catch (error) {
      const appError = toAppError(error);
      // The message may quote the URL: it is shown in job status and logs, so credentials go.
      return { delivered: false, retry: !FINAL_ERROR_CODES.has(appError.code), error: redactUrlsIn(`${appError.code}: ${appError.message}`) };
    }
  }

  private backoff(attemptsSoFar: number): number {
    const schedule = this.options.backoffMs;
    if (schedule.length === 0) return 0;
    return schedule[Math.min(attemptsSoFar - 1, schedule.length - 1)] ?? 0;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
