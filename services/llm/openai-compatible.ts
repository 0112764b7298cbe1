/**
 * The OpenAI chat-completions wire format, which OpenAI, Ollama, vLLM,
 * llama.cpp server, LM Studio and OpenRouter all speak: only the base URL,
 * the model name and the key differ.
 */
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
import type { LlmRequest } from './types.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface ChatCompletion {
  model?: string;
  choices?: Array<{ message?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

interface ChatCompletionChunk {
  choices?: Array<{ delta?: { content?: string | null } }>;
  error?: { message?: string };
}

export class OpenAiCompatibleClient extends HttpLlmClient {
  readonly provider = 'openai-compatible' as const;

  protected buildRequest(request: LlmRequest, stream: boolean): BuiltRequest {
    // OpenAI refuses json_object mode unless the prompt mentions JSON; the hint also steers servers that ignore
    // response_format.
    const system = [request.system, request.json ? jsonInstruction(undefined) : undefined].filter(Boolean).join('\n\n');
    const body: Record<string, unknown> = {
      model: this.model,
      messages: [...(system ? [{ role: 'system', content: system }] : []), ...request.messages],
    };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.json === true) body.response_format = { type: 'json_object' };
    else if (request.json) {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: request.json.name ?? 'response', schema: request.json.schema, strict: true },
      };
    }
    if (stream) body.stream = true;

    const headers = this.jsonHeaders(stream);
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return {
      http: { url: `${this.baseUrl}/chat/completions`, method: 'POST', headers, body: JSON.stringify(body) },
      prefill: '',
    };
  }

  protected readCompletion(answer: unknown): ReadCompletion {
    const completion = answer as ChatCompletion;
    const choice = completion.choices?.[0];
    if (!choice)
      throw new AppError('UPSTREAM_FAILED', 'the model endpoint answered without any choices', {
        details: { provider: this.provider },
      });
    const refused = !choice.message?.content && Boolean(choice.message?.refusal);
    const read: ReadCompletion = {
      text: choice.message?.content ?? '',
      finishReason: refused ? 'refusal' : normaliseFinishReason(choice.finish_reason),
    };
    if (typeof completion.model === 'string') read.model = completion.model;
    const usage = completion.usage;
    if (usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
      read.usage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
    }
    return read;
  }

  protected readStreamEvent(event: SseEvent): StreamStep {
    if (event.data.trim() === '[DONE]') return { done: true };
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(event.data) as ChatCompletionChunk;
    } catch {
      return {}; // keep-alives and oddities some servers interleave
    }
    if (chunk.error) {
      throw new AppError('UPSTREAM_FAILED', `the model stream reported an error: ${chunk.error.message ?? 'unknown'}`, {
        details: { provider: this.provider, model: this.model },
      });
    }
    const content = chunk.choices?.[0]?.delta?.content;
    return typeof content === 'string' && content ? { delta: content } : {};
  }
}
