/** The Anthropic messages API. JSON output is asked for in the system prompt and by starting the answer with "{". */
import { AppError } from '../../core/errors.js';
import {
  HttpLlmClient,
  normaliseFinishReason,
  type BuiltRequest,
  type ReadCompletion,
  type StreamStep,
} from './http-client.js';
import { jsonInstruction } from './json-output.js';
import type { SseEvent } from './sse.js';
import type { LlmMessage, LlmRequest } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
/** The messages API requires max_tokens; this is what callers get when they set none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

interface MessageAnswer {
  model?: string;
  content?: Array<{ type?: string; text?: string }>;
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

interface StreamEventData {
  type?: string;
  delta?: { type?: string; text?: string };
  error?: { type?: string; message?: string };
}

export class AnthropicClient extends HttpLlmClient {
  readonly provider = 'anthropic' as const;

  protected buildRequest(request: LlmRequest, stream: boolean): BuiltRequest {
    const schema = typeof request.json === 'object' ? request.json.schema : undefined;
    const system = [request.system, request.json ? jsonInstruction(schema) : undefined].filter(Boolean).join('\n\n');
    const messages: LlmMessage[] = [...request.messages];
    const prefill = request.json && canPrefillObject(messages, schema) ? '{' : '';
    if (prefill) messages.push({ role: 'assistant', content: prefill });

    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages,
    };
    if (system) body.system = system;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (stream) body.stream = true;

    const headers: Record<string, string> = { ...this.jsonHeaders(stream), 'anthropic-version': ANTHROPIC_VERSION };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    // Users may give the base URL with or without the version segment.
    const url = this.baseUrl.endsWith('/v1') ? `${this.baseUrl}/messages` : `${this.baseUrl}/v1/messages`;
    return { http: { url, method: 'POST', headers, body: JSON.stringify(body) }, prefill };
  }

  protected readCompletion(answer: unknown): ReadCompletion {
    const message = answer as MessageAnswer;
    if (!Array.isArray(message.content)) {
      throw new AppError('UPSTREAM_FAILED', 'the model endpoint answered without message content', {
        details: { provider: this.provider },
      });
    }
    const read: ReadCompletion = {
      text: message.content
        .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
        .join(''),
      finishReason: normaliseFinishReason(message.stop_reason),
    };
    if (typeof message.model === 'string') read.model = message.model;
    const usage = message.usage;
    if (usage && typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number') {
      read.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
    }
    return read;
  }

  protected readStreamEvent(event: SseEvent): StreamStep {
    let data: StreamEventData;
    try {
      data = JSON.parse(event.data) as StreamEventData;
    } catch {
      return {};
    }
    switch (data.type ?? event.event) {
      case 'content_block_delta':
        return data.delta?.type === 'text_delta' && data.delta.text ? { delta: data.delta.text } : {};
      case 'message_stop':
        return { done: true };
      case 'error':
        throw new AppError(
          'UPSTREAM_FAILED',
          `the model stream reported an error: ${data.error?.message ?? data.error?.type ?? 'unknown'}`,
          {
            details: { provider: this.provider, model: this.model, errorType: data.error?.type },
          },
        );
      default:
        return {}; // message_start, content_block_start/stop, message_delta, ping
    }
  }
}

/** Prefilling "{" only works when the answer is an object and the conversation ends with the user. */
function canPrefillObject(messages: LlmMessage[], schema: object | undefined): boolean {
  const wantsArray = (schema as { type?: unknown } | undefined)?.type === 'array';
  return !wantsArray && messages.at(-1)?.role === 'user';
}
