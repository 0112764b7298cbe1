/**
 * What both providers share: one CallScope per call, the retry policy, reading
 * the answer, JSON parsing and stream assembly. A provider supplies only its
 * wire format (request shape, answer shape, stream events).
 */
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { readText, textChunks } from './body.js';
import { CallScope } from './call-scope.js';
import { parseModelJson } from './json-output.js';
import { DEFAULT_RETRY_DELAYS, sendWithRetries, type SendContext } from './send.js';
import { parseSse, type SseEvent } from './sse.js';
import { fetchTransport, type LlmHttpRequest, type LlmTransport } from './transport.js';
import type { LlmClient, LlmProvider, LlmRequest, LlmResponse, LlmStreamChunk, LlmUsage } from './types.js';

export interface LlmEndpointOptions {
  model: string;
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  logger: Logger;
  /** Defaults to global fetch. */
  transport?: LlmTransport;
  /** First retry backoff (doubles each time); tests shorten it. */
  retryBaseDelayMs?: number;
  /** Longest single wait between attempts; a longer Retry-After ends the call instead. */
  retryMaxDelayMs?: number;
}

export interface BuiltRequest {
  http: Omit<LlmHttpRequest, 'signal'>;
  /** Text the request already put in the model's mouth; it is prepended to the answer. */
  prefill: string;
}

export interface ReadCompletion {
  text: string;
  model?: string;
  usage?: LlmUsage;
  finishReason: string;
}

/** What one stream event means: text to pass on, and whether the answer is complete. */
export interface StreamStep {
  delta?: string;
  done?: boolean;
}

export abstract class HttpLlmClient implements LlmClient {
  abstract readonly provider: LlmProvider;
  readonly model: string;
  protected readonly baseUrl: string;
  protected readonly apiKey: string | undefined;
  private readonly options: LlmEndpointOptions;
  private readonly transport: LlmTransport;

  constructor(options: LlmEndpointOptions) {
    this.options = options;
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.transport = options.transport ?? fetchTransport();
  }

  protected abstract buildRequest(request: LlmRequest, stream: boolean): BuiltRequest;
  /** Reads a successful non-streaming answer (already JSON-decoded). */
  protected abstract readCompletion(body: unknown): ReadCompletion;
  protected abstract readStreamEvent(event: SseEvent): StreamStep;

  async complete(request: LlmRequest): Promise<LlmResponse> {
    checkRequest(request);
    const started = Date.now();
    const scope = this.openScope(request);
    try {
      const built = this.buildRequest(request, false);
      const response = await sendWithRetries(this.sendContext(scope), built.http);
      const completion = this.readCompletion(decodeAnswer(await readText(response.body, scope)));
      const text = built.prefill + completion.text;
      const result: LlmResponse = {
        text,
        model: completion.model || this.model,
        finishReason: completion.finishReason,
      };
      if (completion.usage) result.usage = completion.usage;
      if (request.json) result.json = parseModelJson(text);
      this.options.logger.debug(
        {
          provider: this.provider,
          model: result.model,
          elapsedMs: Date.now() - started,
          usage: result.usage,
          finishReason: result.finishReason,
        },
        'model call completed',
      );
      return result;
    } catch (error) {
      throw scope.failure() ?? asUpstreamError(error, 'reading the model answer failed');
    } finally {
      scope.close();
    }
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
    checkRequest(request);
    const scope = this.openScope(request);
    try {
      const built = this.buildRequest(request, true);
      const response = await sendWithRetries(this.sendContext(scope), built.http);
      if (built.prefill) yield { delta: built.prefill };
      for await (const event of parseSse(textChunks(response.body, scope))) {
        scope.restartTimer();
        const step = this.readStreamEvent(event);
        if (step.delta) yield { delta: step.delta };
        if (step.done) break;
      }
    } catch (error) {
      throw scope.failure() ?? asUpstreamError(error, 'the model stream broke off');
    } finally {
      scope.close();
    }
  }

  protected jsonHeaders(stream: boolean): Record<string, string> {
    return { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
  }

  private openScope(request: LlmRequest): CallScope {
    return new CallScope(request.signal, request.timeoutMs ?? this.options.timeoutMs);
  }

  private sendContext(scope: CallScope): SendContext {
    return {
      provider: this.provider,
      model: this.model,
      transport: this.transport,
      logger: this.options.logger,
      scope,
      retry: {
        maxRetries: this.options.maxRetries,
        baseDelayMs: this.options.retryBaseDelayMs ?? DEFAULT_RETRY_DELAYS.baseDelayMs,
        maxDelayMs: this.options.retryMaxDelayMs ?? DEFAULT_RETRY_DELAYS.maxDelayMs,
      },
    };
  }
}

function checkRequest(request: LlmRequest): void {
  if (request.messages.length === 0) throw new AppError('INVALID_INPUT', 'a model request needs at least one message');
}

function decodeAnswer(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new AppError(
      'UPSTREAM_FAILED',
      'the model endpoint answered with something that is not JSON; check baseUrl',
      {
        cause: error,
        details: { excerpt: raw.slice(0, 200) },
      },
    );
  }
}

function asUpstreamError(error: unknown, message: string): AppError {
  return error instanceof AppError ? error : new AppError('UPSTREAM_FAILED', message, { cause: error });
}

/** Finish reasons in one vocabulary: 'stop' and 'length' mean the same for every provider. */
export function normaliseFinishReason(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') return 'unknown';
  if (raw === 'end_turn' || raw === 'stop_sequence') return 'stop';
  if (raw === 'max_tokens') return 'length';
  return raw;
}
