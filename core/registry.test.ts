import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability, type CallContext } from './capability.js';
import { AppError } from './errors.js';
import { silentLogger } from './logger.js';
import { CapabilityRegistry } from './registry.js';

const echo = defineCapability({
  id: 'test.echo',
  title: 'Echo',
  description: 'Echoes its input',
  input: z.strictObject({ text: z.string().min(1), times: z.int().min(1).max(3).default(1) }),
  output: z.object({ text: z.string() }),
  http: { method: 'POST', path: '/api/v1/test/echo' },
  mcpTool: 'test_echo',
  async handler(input) {
    return { text: input.text.repeat(input.times) };
  },
});

const ctx = (): CallContext => ({
  signal: new AbortController().signal,
  logger: silentLogger(),
  progress: () => undefined,
  host: 'cli',
});

describe('CapabilityRegistry', () => {
  it('validates input once, without coercion, and applies defaults', async () => {
    const registry = new CapabilityRegistry();
    registry.register(echo);
    await expect(registry.invoke('test.echo', { text: 'ab', times: 2 }, ctx())).resolves.toEqual({ text: 'abab' });
    await expect(registry.invoke('test.echo', { text: 'ab' }, ctx())).resolves.toEqual({ text: 'ab' });
    const wrongType = await registry.invoke('test.echo', { text: 'ab', times: '2' }, ctx()).catch((e: AppError) => e);
    expect(wrongType).toBeInstanceOf(AppError);
    expect((wrongType as AppError).code).toBe('INVALID_INPUT');
    expect((wrongType as AppError).message).toContain('times');
    const unknown = await registry.invoke('test.echo', { text: 'ab', extra: 1 }, ctx()).catch((e: AppError) => e);
    expect((unknown as AppError).message).toContain('extra');
  });

  it('refuses duplicates and malformed declarations', () => {
    const registry = new CapabilityRegistry();
    registry.register(echo);
    expect(() => registry.register(echo)).toThrow(/already registered/);
    expect(() => registry.register({ ...echo, id: 'test.other', mcpTool: 'Bad-Name' })).toThrow(/MCP tool name/);
    expect(() => registry.register({ ...echo, id: 'nodot', mcpTool: 'x_y' })).toThrow(/<area>\.<action>/);
    expect(() =>
      registry.register({ ...echo, id: 'test.third', mcpTool: 'test_third', http: { method: 'POST', path: '/other' } }),
    ).toThrow(/\/api\/v1/);
    expect(() => registry.register({ ...echo, id: 'test.fourth', mcpTool: 'test_fourth' })).toThrow(
      /route POST \/api\/v1\/test\/echo/,
    );
  });

  it('reports each call to observers with its outcome', async () => {
    const registry = new CapabilityRegistry();
    registry.register(echo);
    const seen: string[] = [];
    registry.onCall((call) => seen.push(`${call.id}:${call.status}`));
    await registry.invoke('test.echo', { text: 'a' }, ctx());
    await registry.invoke('test.echo', {}, ctx()).catch(() => undefined);
    expect(seen).toEqual(['test.echo:ok', 'test.echo:INVALID_INPUT']);
  });

  it('refuses to start work that was already cancelled', async () => {
    const registry = new CapabilityRegistry();
    registry.register(echo);
    const controller = new AbortController();
    controller.abort();
    const error = await registry
      .invoke('test.echo', { text: 'a' }, { ...ctx(), signal: controller.signal })
      .catch((e: AppError) => e);
    expect((error as AppError).code).toBe('CANCELLED');
  });

  it("adds a capability's own error body fields to every failure, validation included", async () => {
    const registry = new CapabilityRegistry();
    registry.register({ ...echo, errorBody: (error) => ({ detail: { error: error.message } }) });
    const invalid = (await registry.invoke('test.echo', { text: '' }, ctx()).catch((e: AppError) => e)) as AppError;
    expect(invalid.code).toBe('INVALID_INPUT');
    expect(invalid.toBody()).toMatchObject({
      detail: { error: invalid.message },
      error: { code: 'INVALID_INPUT', message: invalid.message },
    });
    // Capabilities without the hook keep the plain body.
    const plain = new CapabilityRegistry();
    plain.register(echo);
    const error = (await plain.invoke('test.echo', { text: '' }, ctx()).catch((e: AppError) => e)) as AppError;
    expect(Object.keys(error.toBody())).toEqual(['error']);
  });
});
