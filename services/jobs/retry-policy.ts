/**
 * When a failed run is worth another: errors another try may cure, with
 * exponential backoff and full jitter (so instances that failed together do
 * not retry together), honouring a Retry-After the error carries.
 */
import type { AppError, ErrorCode } from '../../core/errors.js';

/** Failures of something outside us that may pass. */
const TRANSIENT_CODES = new Set<ErrorCode>([
  'TIMEOUT',
  'UPSTREAM_FAILED',
  'UNREACHABLE',
  'OVERLOADED',
  'UNAVAILABLE',
  'RATE_LIMITED',
  'ENGINE_RATE_LIMITED',
]);

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 5 * 60_000 };

/** The cap grows as base·2^(attempt-1) up to max; the delay is drawn from [cap/2, cap]. */
export function backoffDelayMs(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const cap = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}

/** The default policy of a job kind: transient errors are retried with backoff, everything else is final. */
export function defaultRetryDelayMs(error: AppError, attempt: number): number | null {
  if (!TRANSIENT_CODES.has(error.code)) return null;
  const backoff = backoffDelayMs(attempt);
  return error.retryAfterSeconds !== undefined ? Math.max(backoff, error.retryAfterSeconds * 1000) : backoff;
}
