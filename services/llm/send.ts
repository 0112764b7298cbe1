/**
 * Sending one model request with the shared failure policy: retries with
 * backoff on 429 (honouring Retry-After), 408, 5xx and network errors, and a
 * typed error for everything else. Providers only build requests and read
 * successful answers.
 */
import type { Logger } from '../../core/logger.js';
import { AppError } from '../../core/errors.js';
import { readText } from './body.js';
import type { CallScope } from './call-scope.js';
import type { LlmHttpRequest, LlmHttpResponse, LlmTransport } from './transport.js';
import type { LlmProvider } from './types.js';

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff; doubles each retry, with jitter. */
  baseDelayMs: number;
  /** Longest single wait, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_DELAYS = { baseDelayMs: 500, maxDelayMs: 30_000 } as const;

export interface SendContext {
  provider: LlmProvider;
  model: string;
  transport: LlmTransport;
  retry: RetryPolicy;
  logger: Logger;
  scope: CallScope;
}

/** Resolves with a 2xx response whose body is still unread. */
export async function sendWithRetries(
  context: SendContext,
  request: Omit<LlmHttpRequest, 'signal'>,
): Promise<LlmHttpResponse> {
  const { scope, retry, logger } = context;
  for (let attempt = 0; ; attempt++) {
    const retriesLeft = attempt < retry.maxRetries;
    let response: LlmHttpResponse;
    try {
      response = await scope.race(context.transport({ ...request, signal: scope.signal }));
    } catch (error) {
      const stopped = scope.failure();
      if (stopped) throw stopped;
      if (error instanceof AppError && !isRetriableTransportError(error)) throw error;
      if (!retriesLeft) {
        throw new AppError('UPSTREAM_FAILED', `could not reach the ${context.provider} model endpoint`, {
          cause: error,
          details: details(context, { attempts: attempt + 1 }),
        });
      }
      const delayMs = backoffMs(retry, attempt);
      logger.warn(
        { ...details(context), attempt: attempt + 1, delayMs, err: error },
        'model request failed to connect; retrying',
      );
      await scope.sleep(delayMs);
      continue;
    }

    if (response.status >= 200 && response.status < 300) return response;

    const upstreamMessage = errorMessageOf(await readText(response.body, scope, 4096).catch(rethrowIfStopped(scope)));
    const info = details(context, { status: response.status, upstreamMessage, attempts: attempt + 1 });
    const status = response.status;

    if (status === 401 || status === 403) {
      throw new AppError(
        'UNAVAILABLE',
        `the ${context.provider} endpoint refused the credentials (HTTP ${status}); check the API key`,
        { details: info },
      );
    }
    if (status === 404) {
      throw new AppError(
        'UNAVAILABLE',
        `the ${context.provider} endpoint answered 404; check baseUrl and the model name "${context.model}"`,
        { details: info },
      );
    }

    const retriable = status === 429 || status === 408 || status >= 500;
    if (!retriable) {
      throw new AppError(
        'UPSTREAM_FAILED',
        `the model endpoint rejected the request (HTTP ${status})${upstreamMessage ? `: ${upstreamMessage}` : ''}`,
        { details: info },
      );
    }

    const retryAfterMs = retryAfterOf(response.headers);
    const delayMs = retryAfterMs ?? backoffMs(retry, attempt);
    // Waiting past the limit or the timeout would only turn this answer into a vaguer one.
    if (!retriesLeft || delayMs > retry.maxDelayMs || delayMs >= scope.remainingMs()) {
      if (status === 429) {
        throw new AppError('RATE_LIMITED', `the ${context.provider} endpoint is rate limiting requests`, {
          details: info,
          ...(retryAfterMs !== undefined ? { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } : {}),
        });
      }
      throw new AppError(
        'UPSTREAM_FAILED',
        `the model endpoint failed (HTTP ${status})${upstreamMessage ? `: ${upstreamMessage}` : ''}`,
        { details: info },
      );
    }
    logger.warn({ ...details(context), status, attempt: attempt + 1, delayMs }, 'model request failed; retrying');
    await scope.sleep(delayMs);
  }
}

/** A transport built on the outbound client may already throw typed errors; only transient ones are retried here. */
function isRetriableTransportError(error: AppError): boolean {
  return error.code === 'UPSTREAM_FAILED' || error.code === 'UNREACHABLE' || error.code === 'TIMEOUT';
}

function rethrowIfStopped(scope: CallScope): (error: unknown) => string {
  return (error) => {
    const stopped = scope.failure();
    if (stopped) throw stopped;
    void error; // an unreadable error body still leaves the status to report
    return '';
  };
}

function details(context: SendContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { provider: context.provider, model: context.model, ...extra };
}

function backoffMs(retry: RetryPolicy, attempt: number): number {
  const exponential = retry.baseDelayMs * 2 ** attempt;
  const jittered = exponential * (0.75 + Math.random() * 0.5);
  return Math.min(retry.maxDelayMs, Math.round(jittered));
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterOf(headers: Record<string, string>, now = Date.now()): number | undefined {
  const millis = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] && Number.isFinite(millis) && millis >= 0) return millis;
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own explanation: `{error:{message}}` (both providers), `{error:"..."}` or `{message}`. */
function errorMessageOf(body: string): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message) return message.slice(0, 500);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.trim().slice(0, 200) || undefined;
}
