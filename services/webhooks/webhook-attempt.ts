/**
 * One delivery attempt: a signed POST through the outbound client (so the
 * outbound policy applies: private addresses are refused unless allowed),
 * judged by the answer. 2xx is delivered; network errors, 5xx and 429 are
 * worth another attempt (429 and 503 may say when, in Retry-After); any
 * other answer, and a refusal by the outbound policy, is final.
 */
import { AppError, toAppError, type ErrorCode } from '../../core/errors.js';
import { redactUrlsIn } from '../../core/http/redact-url.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import { bodySignature, signatureHeaders } from './standard-webhooks.js';

export type WebhookSend = (request: OutboundRequest) => Promise<Pick<OutboundResponse, 'status' | 'headers'>>;

export interface WebhookMessage {
  /** The webhook-id: one per event, the same on every attempt. */
  id: string;
  url: string;
  /** The JSON body, exactly as signed and sent. */
  body: string;
  /** Headers the receiver asked for (a Firecrawl webhook's `headers`); ours win over them. */
  headers?: Record<string, string>;
  /** Also sign the raw body in this header, `sha256=<hex HMAC-SHA256>` (Firecrawl's X-Firecrawl-Signature). */
  bodySignatureHeader?: string;
}

/** Headers a receiver's list may not set: the request's framing and our signatures. */
const RESERVED_HEADER = /^(host|content-length|content-type|transfer-encoding|connection|webhook-.*)$/i;

function receiverHeaders(message: WebhookMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {}))
    if (!RESERVED_HEADER.test(name) && name.toLowerCase() !== message.bodySignatureHeader?.toLowerCase())
      headers[name] = value;
  return headers;
}

/** What a failed attempt tells the retry policy (AppError.details of the error thrown). */
export interface AttemptFailure {
  retryable: boolean;
  status?: number;
}

/** Our own refusals: another attempt cannot change them. */
const FINAL_CODES = new Set<ErrorCode>(['FORBIDDEN_ADDRESS', 'INVALID_INPUT', 'CANCELLED']);

/** Sends once; resolves with the HTTP status on 2xx, throws an AppError whose details say whether to retry. */
export async function attemptDelivery(
  send: WebhookSend,
  message: WebhookMessage,
  secret: string,
  options: { timeoutMs: number; signal?: AbortSignal; now?: () => Date },
): Promise<number> {
  let response: Pick<OutboundResponse, 'status' | 'headers'>;
  try {
    response = await send({
      url: message.url,
      method: 'POST',
      purpose: 'webhook',
      retries: 0,
      // A receiver that redirects is misconfigured: following it would turn the POST into a GET elsewhere.
      followRedirects: false,
      timeoutMs: options.timeoutMs,
      body: message.body,
      headers: {
        ...receiverHeaders(message),
        'Content-Type': 'application/json',
        ...signatureHeaders(secret, message.id, options.now?.() ?? new Date(), message.body),
        ...(message.bodySignatureHeader
          ? { [message.bodySignatureHeader]: `sha256=${bodySignature(secret, message.body)}` }
          : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const appError = toAppError(error);
    const details: AttemptFailure = { retryable: !FINAL_CODES.has(appError.code) };
    // The message may quote the URL; it is shown in the delivery log and logs, so credentials go.
    throw new AppError(appError.code, redactUrlsIn(appError.message), { details, cause: error });
  }
  const { status } = response;
  if (status >= 200 && status < 300) return status;
  const retryable = status >= 500 || status === 429;
  const details: AttemptFailure = { retryable, status };
  const retryAfterSeconds = retryable ? parseRetryAfter(response.headers['retry-after']) : undefined;
  throw new AppError('UPSTREAM_FAILED', `HTTP ${status}`, {
    details,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

/** Retry-After as delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function isRetryableFailure(error: AppError): boolean {
  return (error.details as AttemptFailure | undefined)?.retryable === true;
}
