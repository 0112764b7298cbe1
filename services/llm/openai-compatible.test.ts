import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { collect, codeOf, describeProviderContract } from './fixtures/contract.js';
import type { ScriptedReply } from './fixtures/scripted-server.js';
import { OpenAiCompatibleClient } from './openai-compatible.js';
import type { LlmEndpointOptions } from './http-client.js';

function completion(text: string, finishReason = 'stop'): ScriptedReply {
  return {
    json: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'test-model-2024',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    },
  };
}

function chunk(content: string | undefined, finishReason: string | null = null): { data: unknown } {
  return {
    data: {
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finishReason }],
    },
  };
}

// Served under /v1, the way Ollama, vLLM, llama.cpp and LM Studio expose the API.
const contract = describeProviderContract({
  name: 'openai-compatible',
  baseUrlFor: (origin) => `${origin}/v1`,
  path: '/v1/chat/completions',
  createClient: (options) => new OpenAiCompatibleClient(options),
  textReply: (text) => completion(text),
  jsonReply: (json) => completion(json),
  streamReply: (deltas, options = {}) => ({
    sse: [
      { data: { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] } },
      ...deltas.map((delta) => chunk(delta)),
      ...(options.hold ? [] : [chunk(undefined, 'stop'), { data: '[DONE]' }]),
    ],
    hold: options.hold ?? false,
  }),
  errorReply: (status, message, headers = {}) => ({
    status,
    headers,
    json: { error: { message, type: 'invalid_request_error' } },
  }),
  conversationOf: (request) =>
    (request.body.messages as Array<{ role: string }>).filter((message) => message.role !== 'system'),
});

describe('OpenAiCompatibleClient requests', () => {
  const client = (overrides: Partial<LlmEndpointOptions> = {}): OpenAiCompatibleClient =>
    new OpenAiCompatibleClient({
      model: 'llama3.1:8b',
      baseUrl: `${contract.server().origin}/v1`,
      apiKey: 'sk-test',
      timeoutMs: 5000,
      maxRetries: 2,
      retryBaseDelayMs: 10,
      logger: silentLogger(),
      ...overrides,
    });

  it('sends model, system and user messages, max_tokens, temperature and a bearer key', async () => {
    const server = contract.server();
    server.script(completion('ok'));
    await client().complete({
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
      ],
      maxTokens: 256,
      temperature: 0.2,
    });
    const [request] = server.received;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
      ],
      max_tokens: 256,
      temperature: 0.2,
    });
  });

  it('sends no Authorization header when no key is configured (local servers)', async () => {
    const server = contract.server();
    server.script(completion('ok'));
    await new OpenAiCompatibleClient({
      model: 'qwen2.5',
      baseUrl: `${server.origin}/v1/`,
      timeoutMs: 5000,
      maxRetries: 0,
      logger: silentLogger(),
    }).complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.received[0]!.headers.authorization).toBeUndefined();
    expect(server.received[0]!.path).toBe('/v1/chat/completions');
    expect(server.received[0]!.body).toEqual({ model: 'qwen2.5', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('asks for json_object, mentioning JSON in the system prompt', async () => {
    const server = contract.server();
    server.script(completion('{"a":1}'));
    const answer = await client().complete({
      system: 'Extract.',
      messages: [{ role: 'user', content: 'x' }],
      json: true,
    });
    expect(answer.json).toEqual({ a: 1 });
    const body = server.received[0]!.body;
    expect(body.response_format).toEqual({ type: 'json_object' });
    const system = (body.messages as Array<{ role: string; content: string }>)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^Extract\.\n\n.*JSON/s);
  });

  it('asks for a strict json_schema when a schema is given', async () => {
    const server = contract.server();
    server.script(completion('{"title":"t"}'));
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
      additionalProperties: false,
    };
    await client().complete({ messages: [{ role: 'user', content: 'x' }], json: { schema, name: 'page_title' } });
    expect(server.received[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'page_title', schema, strict: true },
    });
  });

  it('reports a cut-off answer as finishReason "length"', async () => {
    const server = contract.server();
    server.script(completion('partial', 'length'));
    expect((await client().complete({ messages: [{ role: 'user', content: 'x' }] })).finishReason).toBe('length');
  });

  it('honours retry-after-ms', async () => {
    const server = contract.server();
    server.script(
      { status: 429, headers: { 'retry-after-ms': '300' }, json: { error: { message: 'slow' } } },
      completion('ok'),
    );
    await client({ retryBaseDelayMs: 1 }).complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(server.received[1]!.at - server.received[0]!.at).toBeGreaterThanOrEqual(280);
  });

  it('accepts a stream that ends without [DONE]', async () => {
    const server = contract.server();
    server.script({ sse: [chunk('a'), chunk('b')] });
    expect((await collect(client().stream({ messages: [{ role: 'user', content: 'x' }] }))).join('')).toBe('ab');
  });

  it('fails a stream that reports an error with UPSTREAM_FAILED', async () => {
    const server = contract.server();
    server.script({ sse: [chunk('a'), { data: { error: { message: 'model crashed' } } }] });
    expect(await codeOf(collect(client().stream({ messages: [{ role: 'user', content: 'x' }] })))).toBe(
      'UPSTREAM_FAILED',
    );
  });

  it('fails with UPSTREAM_FAILED when the answer has no choices', async () => {
    const server = contract.server();
    server.script({ json: { choices: [] } });
    expect(await codeOf(client().complete({ messages: [{ role: 'user', content: 'x' }] }))).toBe('UPSTREAM_FAILED');
  });
});
