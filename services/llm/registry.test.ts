import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { AnthropicClient } from './anthropic.js';
import { llmConfigSchema } from './config.js';
import { collect, codeOf } from './fixtures/contract.js';
import { OpenAiCompatibleClient } from './openai-compatible.js';
import { createLlmTiers, modelUsed } from './registry.js';
import type { LlmHttpRequest, LlmTransport } from './transport.js';

describe('createLlmTiers', () => {
  it('gives null tiers and "extractive" when nothing is configured', () => {
    for (const config of [undefined, llmConfigSchema.parse({})]) {
      const tiers = createLlmTiers(config, silentLogger());
      expect(tiers.fast).toBeNull();
      expect(tiers.quality).toBeNull();
      expect(tiers.describe()).toEqual({ configured: false });
      expect(modelUsed(tiers.quality)).toBe('extractive');
    }
  });

  it('lets one configured tier serve both', () => {
    const tiers = createLlmTiers(
      llmConfigSchema.parse({ fast: { baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b' } }),
      silentLogger(),
    );
    expect(tiers.fast).toBeInstanceOf(OpenAiCompatibleClient);
    expect(tiers.quality).toBe(tiers.fast);
    expect(modelUsed(tiers.quality)).toBe('llama3.1:8b');
    const onlyQuality = createLlmTiers(
      llmConfigSchema.parse({ quality: { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'k' } }),
      silentLogger(),
    );
    expect(onlyQuality.fast).toBe(onlyQuality.quality);
  });

  it('builds each provider and describes the tiers without secrets', () => {
    const tiers = createLlmTiers(
      llmConfigSchema.parse({
        fast: { baseUrl: 'https://user:secret@llm.internal/v1', apiKey: 'sk-1', model: 'qwen2.5:7b' },
        quality: { provider: 'anthropic', apiKey: 'sk-ant', model: 'claude-sonnet-4-5' },
      }),
      silentLogger(),
    );
    expect(tiers.fast).toBeInstanceOf(OpenAiCompatibleClient);
    expect(tiers.quality).toBeInstanceOf(AnthropicClient);
    expect(tiers.quality?.provider).toBe('anthropic');
    const description = tiers.describe();
    expect(description).toEqual({
      configured: true,
      fast: { provider: 'openai-compatible', model: 'qwen2.5:7b', baseUrl: 'https://llm.internal/v1' },
      quality: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com' },
    });
    expect(JSON.stringify(description)).not.toMatch(/sk-|secret/);
  });

  it('sends through an injected transport, which may answer with whole-string bodies', async () => {
    const seen: LlmHttpRequest[] = [];
    const transport: LlmTransport = async (request) => {
      seen.push(request);
      const streaming = (JSON.parse(request.body) as { stream?: boolean }).stream;
      const body = streaming
        ? 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: ' +
          '{"choices":[{"delta":{"content":"b"}}]}\n\ndata: [DONE]\n\n'
        : JSON.stringify({ model: 'm', choices: [{ message: { content: 'whole' }, finish_reason: 'stop' }] });
      return { status: 200, headers: { 'content-type': 'application/json' }, body };
    };
    const tiers = createLlmTiers(
      llmConfigSchema.parse({ fast: { baseUrl: 'https://llm.example/v1', apiKey: 'k', model: 'm' } }),
      silentLogger(),
      { transport },
    );
    expect((await tiers.fast!.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('whole');
    expect(await collect(tiers.fast!.stream({ messages: [{ role: 'user', content: 'x' }] }))).toEqual(['a', 'b']);
    expect(seen[0]).toMatchObject({ url: 'https://llm.example/v1/chat/completions', method: 'POST' });
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('passes a typed refusal from the transport through without retrying', async () => {
    let calls = 0;
    const transport: LlmTransport = async () => {
      calls++;
      throw new AppError('FORBIDDEN_ADDRESS', 'refused by the outbound policy');
    };
    const tiers = createLlmTiers(
      llmConfigSchema.parse({ fast: { baseUrl: 'http://10.0.0.5/v1', model: 'm' } }),
      silentLogger(),
      { transport },
    );
    expect(await codeOf(tiers.fast!.complete({ messages: [{ role: 'user', content: 'x' }] }))).toBe(
      'FORBIDDEN_ADDRESS',
    );
    expect(calls).toBe(1);
  });
});
