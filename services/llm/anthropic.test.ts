import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { AnthropicClient } from './anthropic.js';
import { collect, codeOf, describeProviderContract } from './fixtures/contract.js';
import type { ScriptedReply } from './fixtures/scripted-server.js';
import type { LlmEndpointOptions } from './http-client.js';

function message(text: string, stopReason = 'end_turn'): ScriptedReply {
  return {
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'test-model-2024',
      content: [{ type: 'text', text }],
      stop_reason: stopReason,
      usage: { input_tokens: 12, output_tokens: 3 },
    },
  };
}

function textDelta(text: string): { event: string; data: unknown } {
  return {
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
  };
}

function streamOf(deltas: string[], options: { hold?: boolean } = {}): ScriptedReply {
  return {
    sse: [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: { id: 'msg_1', model: 'test-model-2024', content: [], usage: { input_tokens: 5, output_tokens: 1 } },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      { event: 'ping', data: { type: 'ping' } },
      ...deltas.map(textDelta),
      ...(options.hold
        ? []
        : [
            { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
            {
              event: 'message_delta',
              data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } },
            },
            { event: 'message_stop', data: { type: 'message_stop' } },
          ]),
    ],
    hold: options.hold ?? false,
  };
}

const contract = describeProviderContract({
  name: 'anthropic',
  baseUrlFor: (origin) => origin,
  path: '/v1/messages',
  createClient: (options) => new AnthropicClient(options),
  textReply: (text) => message(text),
  // The client prefills "{", so the model's answer continues after it.
  jsonReply: (json) => message(json.replace(/^\s*\{/, '')),
  streamReply: streamOf,
  errorReply: (status, text, headers = {}) => ({
    status,
    headers,
    json: { type: 'error', error: { type: 'api_error', message: text } },
  }),
  conversationOf: (request) => request.body.messages as unknown[],
});

describe('AnthropicClient requests', () => {
  const client = (overrides: Partial<LlmEndpointOptions> = {}): AnthropicClient =>
    new AnthropicClient({
      model: 'claude-test',
      baseUrl: contract.server().origin,
      apiKey: 'sk-ant-test',
      timeoutMs: 5000,
      maxRetries: 2,
      retryBaseDelayMs: 10,
      logger: silentLogger(),
      ...overrides,
    });

  it('sends x-api-key, anthropic-version, a top-level system prompt, max_tokens and temperature', async () => {
    const server = contract.server();
    server.script(message('ok'));
    await client().complete({
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'q' }],
      maxTokens: 300,
      temperature: 0,
    });
    const [request] = server.received;
    expect(request!.path).toBe('/v1/messages');
    expect(request!.headers['x-api-key']).toBe('sk-ant-test');
    expect(request!.headers['anthropic-version']).toBe('2023-06-01');
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({
      model: 'claude-test',
      max_tokens: 300,
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'q' }],
      temperature: 0,
    });
  });

  it('always sends max_tokens, which the API requires', async () => {
    const server = contract.server();
    server.script(message('ok'));
    await client().complete({ messages: [{ role: 'user', content: 'q' }] });
    expect(server.received[0]!.body.max_tokens).toBe(4096);
    expect(server.received[0]!.body).not.toHaveProperty('system');
  });

  it('accepts a base URL that already ends in /v1', async () => {
    const server = contract.server();
    server.script(message('ok'));
    await client({ baseUrl: `${server.origin}/v1/` }).complete({ messages: [{ role: 'user', content: 'q' }] });
    expect(server.received[0]!.path).toBe('/v1/messages');
  });

  it('asks for JSON in the system prompt with the schema, prefills "{" and returns the whole object', async () => {
    const server = contract.server();
    server.script(message('"title": "t", "n": 2}'));
    const schema = { type: 'object', properties: { title: { type: 'string' }, n: { type: 'number' } } };
    const answer = await client().complete({
      system: 'Extract.',
      messages: [{ role: 'user', content: 'x' }],
      json: { schema },
    });
    expect(answer.json).toEqual({ title: 't', n: 2 });
    expect(answer.text).toBe('{"title": "t", "n": 2}');
    const body = server.received[0]!.body;
    expect(body.system).toMatch(/^Extract\.\n\n.*JSON/s);
    expect(body.system).toContain(JSON.stringify(schema));
    expect(body.messages).toEqual([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '{' },
    ]);
    expect(body).not.toHaveProperty('response_format');
  });

  it('does not prefill "{" when the schema asks for an array', async () => {
    const server = contract.server();
    server.script(message('[1, 2]'));
    const answer = await client().complete({
      messages: [{ role: 'user', content: 'x' }],
      json: { schema: { type: 'array', items: { type: 'number' } } },
    });
    expect(answer.json).toEqual([1, 2]);
    expect(server.received[0]!.body.messages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('streams the prefilled "{" first in JSON mode', async () => {
    const server = contract.server();
    server.script(streamOf(['"a"', ': 1}']));
    const deltas = await collect(client().stream({ messages: [{ role: 'user', content: 'x' }], json: true }));
    expect(deltas[0]).toBe('{');
    expect(JSON.parse(deltas.join(''))).toEqual({ a: 1 });
  });

  it('reports max_tokens as finishReason "length"', async () => {
    const server = contract.server();
    server.script(message('partial', 'max_tokens'));
    expect((await client().complete({ messages: [{ role: 'user', content: 'x' }] })).finishReason).toBe('length');
  });

  it('retries 529 overloaded', async () => {
    const server = contract.server();
    server.script(
      { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      message('ok'),
    );
    expect((await client().complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('ok');
    expect(server.received).toHaveLength(2);
  });

  it('fails a stream carrying an error event with UPSTREAM_FAILED', async () => {
    const server = contract.server();
    server.script({
      sse: [
        textDelta('a'),
        { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ],
    });
    expect(await codeOf(collect(client().stream({ messages: [{ role: 'user', content: 'x' }] })))).toBe(
      'UPSTREAM_FAILED',
    );
  });
});
