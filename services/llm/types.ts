/**
 * The one interface every LLM-backed feature talks to. Providers differ only
 * in wire format; callers never see which one answered except through
 * `provider` and `model`.
 */

export type LlmProvider = 'openai-compatible' | 'anthropic';

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** Ask for JSON output; with a schema the provider is told to follow it (and OpenAI enforces it strictly). */
export type LlmJsonMode = boolean | { schema: object /** ^[a-zA-Z0-9_-]+$, default "response" */; name?: string };

export interface LlmRequest {
  system?: string;
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  json?: LlmJsonMode;
  /** The caller's cancellation; aborting it ends the call with CANCELLED. */
  signal?: AbortSignal;
  /**
   * Overrides the tier's timeout. For complete() it bounds the whole call,
   * retries included; for stream() it bounds the wait for each next chunk.
   */
  timeoutMs?: number;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmResponse {
  text: string;
  /** The parsed JSON when the request asked for JSON. */
  json?: unknown;
  /** The model the provider reports having used (falls back to the configured one). */
  model: string;
  usage?: LlmUsage;
  /** 'stop' or 'length' (output cut at maxTokens) for both providers; other provider values pass through. */
  finishReason: string;
}

export interface LlmStreamChunk {
  delta: string;
}

export interface LlmClient {
  readonly provider: LlmProvider;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** Text deltas in order. Leaving the loop early aborts the upstream request. */
  stream(request: LlmRequest): AsyncIterable<LlmStreamChunk>;
}
