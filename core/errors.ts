import { randomBytes } from 'node:crypto';
import type { Logger } from './logger.js';

/**
 * One catalogue of typed errors. Each code maps once to an HTTP status and to
 * an MCP error result; nothing outside this file matches on error messages.
 */

export const ERROR_CATALOGUE = {
  INVALID_INPUT: { status: 400, title: 'Invalid input' },
  MALFORMED_JSON: { status: 400, title: 'Malformed JSON body' },
  MALFORMED_REQUEST: { status: 400, title: 'Malformed HTTP request' },
  UNKNOWN_ENGINE: { status: 400, title: 'Unknown engine' },
  UNSAFE_QUERY: { status: 400, title: 'Refused by the safety screen' },
  UNAUTHORIZED: { status: 401, title: 'Missing or invalid API key' },
  FORBIDDEN_ADDRESS: { status: 403, title: 'Address refused by the outbound policy' },
  QUOTA_EXCEEDED: { status: 403, title: 'Quota of this API key exceeded' },
  ROBOTS_DISALLOWED: { status: 403, title: 'Disallowed by robots.txt' },
  ACTION_NOT_ALLOWED: { status: 403, title: 'Page action not enabled on this installation' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request not received in time' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  URI_TOO_LONG: { status: 414, title: 'Request URI too long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  ACTION_FAILED: { status: 422, title: 'A page action could not be done' },
  RATE_LIMITED: { status: 429, title: 'Rate limit exceeded' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request header fields too large' },
  CANCELLED: { status: 499, title: 'Request cancelled' },
  INTERNAL: { status: 500, title: 'Internal error' },
  UPSTREAM_FAILED: { status: 502, title: 'Upstream request failed' },
  UNREACHABLE: { status: 502, title: 'Upstream host unreachable (DNS failure, connection refused or reset)' },
  RESPONSE_TOO_LARGE: { status: 502, title: 'Upstream response too large' },
  OVERLOADED: { status: 503, title: 'Service overloaded' },
  UNAVAILABLE: { status: 503, title: 'Feature unavailable on this installation' },
  TIMEOUT: { status: 504, title: 'Timed out' },
  ENGINE_CAPTCHA: { status: 502, title: 'Engine answered with a CAPTCHA' },
  ENGINE_RATE_LIMITED: { status: 502, title: 'Engine rate limited the request' },
  ENGINE_ACCESS_DENIED: { status: 502, title: 'Engine denied access' },
  ENGINE_PARSE_ERROR: { status: 502, title: 'Engine response could not be parsed' },
  ENGINE_DISABLED: { status: 503, title: 'Engine disabled' },
  ENGINE_SUSPENDED: { status: 503, title: 'Engine suspended' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
  /** Fields a capability adds for a wire format it mimics (e.g. Tavily's detail.error); never `error`. */
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Seconds a client should wait before retrying (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** Extra top-level fields of the HTTP error body (see CapabilityDefinition.errorBody). */
  readonly bodyExtras: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: unknown;
      cause?: unknown;
      retryAfterSeconds?: number;
      bodyExtras?: Record<string, unknown>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.bodyExtras = options.bodyExtras;
  }

  /** The same error with extra top-level body fields (the `error` object itself is never replaced). */
  withBodyExtras(extras: Record<string, unknown>): AppError {
    const options: ConstructorParameters<typeof AppError>[2] = {
      cause: this.cause,
      bodyExtras: { ...this.bodyExtras, ...extras },
    };
    if (this.details !== undefined) options.details = this.details;
    if (this.retryAfterSeconds !== undefined) options.retryAfterSeconds = this.retryAfterSeconds;
    const copy = new AppError(this.code, this.message, options);
    copy.stack = this.stack;
    return copy;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ...this.bodyExtras, error: { code: this.code, message: this.message } };
    if (this.details !== undefined) body.error.details = this.details;
    return body;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Turns anything thrown into an AppError, keeping the original as the cause. */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  if (value instanceof Error && (value.name === 'AbortError' || (value as { code?: string }).code === 'ABORT_ERR')) {
    return new AppError('CANCELLED', 'The operation was cancelled', { cause: value });
  }
  if (value instanceof Error && value.name === 'TimeoutError')
    return new AppError('TIMEOUT', value.message || 'The operation timed out', { cause: value });
  const message = value instanceof Error ? value.message : String(value);
  return new AppError('INTERNAL', message || 'Internal error', { cause: value });
}

const concealed = new WeakSet<AppError>();

/**
 * What a caller may see of a failure: an AppError as it is; anything else (a
 * bug) as INTERNAL with a generic message and a reference, logged here once
 * with its stack. Every host and the job runner answer through this.
 */
export function publicError(
  error: unknown,
  logger: Pick<Logger, 'error'>,
  context: Record<string, unknown> = {},
): AppError {
  const appError = toAppError(error);
  if (appError.code !== 'INTERNAL' || concealed.has(appError)) return appError;
  const reference = randomBytes(4).toString('hex');
  logger.error({ err: error, reference, ...context }, 'internal error');
  const shown = new AppError('INTERNAL', `internal error (reference ${reference}); the server log has the details`, {
    details: { reference },
    cause: error,
  });
  concealed.add(shown);
  return shown;
}
