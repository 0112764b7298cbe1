import { describe, expect, it } from 'vitest';
import { llmConfigSchema, llmEnvOverrides } from './config.js';

describe('llmConfigSchema', () => {
  it('is empty by default: no tier configured', () => {
    expect(llmConfigSchema.parse(undefined)).toEqual({});
    expect(llmConfigSchema.parse({})).toEqual({});
  });

  it('fills the provider base URL, timeout and retries', () => {
    const config = llmConfigSchema.parse({
      fast: { model: 'gpt-4o-mini', apiKey: 'sk-1' },
      quality: { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant' },
    });
    expect(config.fast).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-1',
      model: 'gpt-4o-mini',
      timeoutMs: 60_000,
      maxRetries: 2,
    });
    expect(config.quality).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      timeoutMs: 60_000,
      maxRetries: 2,
    });
  });

  it('keeps a configured base URL', () => {
    const config = llmConfigSchema.parse({
      fast: { baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b', timeoutMs: 120_000, maxRetries: 0 },
    });
    expect(config.fast).toMatchObject({ baseUrl: 'http://localhost:11434/v1', timeoutMs: 120_000, maxRetries: 0 });
    expect(config.fast?.apiKey).toBeUndefined();
  });

  it('names the bad field', () => {
    const missingModel = llmConfigSchema.safeParse({ fast: { provider: 'openai-compatible' } });
    expect(missingModel.success).toBe(false);
    expect(missingModel.error?.issues[0]?.path).toEqual(['fast', 'model']);
    expect(llmConfigSchema.safeParse({ fast: { model: 'm', provider: 'cohere' } }).success).toBe(false);
    expect(llmConfigSchema.safeParse({ fast: { model: 'm', baseUrl: 'ftp://x' } }).success).toBe(false);
    expect(llmConfigSchema.safeParse({ fast: { model: 'm', temperature: 1 } }).success).toBe(false);
    expect(llmConfigSchema.safeParse({ slow: {} }).success).toBe(false);
  });
});

describe('llmEnvOverrides', () => {
  it('is empty when no QUARRY_LLM_* variable is set, even with vendor keys around', () => {
    expect(llmEnvOverrides({ OPENAI_API_KEY: 'sk-x', ANTHROPIC_API_KEY: 'sk-ant' })).toEqual({});
  });

  it('reads the fast tier, taking OPENAI_API_KEY for the public OpenAI API', () => {
    expect(llmEnvOverrides({ QUARRY_LLM_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-x' })).toEqual({
      fast: { model: 'gpt-4o-mini', apiKey: 'sk-x' },
    });
    expect(
      llmEnvOverrides({ QUARRY_LLM_MODEL: 'm', QUARRY_LLM_API_KEY: 'sk-own', OPENAI_API_KEY: 'sk-x' }).fast?.apiKey,
    ).toBe('sk-own');
  });

  it('never sends a vendor key to another host', () => {
    const env = {
      QUARRY_LLM_BASE_URL: 'https://openrouter.ai/api/v1',
      QUARRY_LLM_MODEL: 'meta-llama/llama-3.1-8b-instruct',
      OPENAI_API_KEY: 'sk-x',
    };
    expect(llmEnvOverrides(env)).toEqual({
      fast: { baseUrl: 'https://openrouter.ai/api/v1', model: 'meta-llama/llama-3.1-8b-instruct' },
    });
  });

  it('takes ANTHROPIC_API_KEY for an anthropic tier', () => {
    expect(
      llmEnvOverrides({
        QUARRY_LLM_PROVIDER: 'anthropic',
        QUARRY_LLM_MODEL: 'claude-haiku-4-5',
        ANTHROPIC_API_KEY: 'sk-ant',
        OPENAI_API_KEY: 'sk-x',
      }),
    ).toEqual({
      fast: { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-ant' },
    });
  });

  it('fills unset quality variables from the fast tier', () => {
    const env = {
      QUARRY_LLM_BASE_URL: 'http://localhost:11434/v1',
      QUARRY_LLM_MODEL: 'llama3.1:8b',
      QUARRY_LLM_QUALITY_MODEL: 'llama3.1:70b',
    };
    expect(llmEnvOverrides(env)).toEqual({
      fast: { baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b' },
      quality: { baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:70b' },
    });
  });

  it('does not lend the fast base URL or key to a quality tier on another provider', () => {
    const env = {
      QUARRY_LLM_BASE_URL: 'http://localhost:11434/v1',
      QUARRY_LLM_API_KEY: 'local',
      QUARRY_LLM_MODEL: 'llama3.1:8b',
      QUARRY_LLM_QUALITY_PROVIDER: 'anthropic',
      QUARRY_LLM_QUALITY_MODEL: 'claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'sk-ant',
    };
    expect(llmEnvOverrides(env).quality).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant',
    });
  });

  it('leaves quality out when no quality variable is set (the registry then reuses fast)', () => {
    expect(llmEnvOverrides({ QUARRY_LLM_MODEL: 'm' }).quality).toBeUndefined();
  });

  it('produces values the schema accepts', () => {
    const overrides = llmEnvOverrides({
      QUARRY_LLM_PROVIDER: 'anthropic',
      QUARRY_LLM_MODEL: 'claude-haiku-4-5',
      QUARRY_LLM_API_KEY: 'k',
      QUARRY_LLM_QUALITY_MODEL: 'claude-opus-4-1',
    });
    const config = llmConfigSchema.parse(overrides);
    expect(config.quality).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'k',
      model: 'claude-opus-4-1',
    });
  });
});
