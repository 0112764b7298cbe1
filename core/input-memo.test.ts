import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability, type CallContext } from './capability.js';
import { AppError } from './errors.js';
import { silentLogger } from './logger.js';
import { CapabilityRegistry } from './registry.js';

/** A capability that hands its validated input back, so a test can see whether two calls shared one. */
function mirror(sharedInput: boolean) {
  return defineCapability({
    id: sharedInput ? 'test.shared' : 'test.own',
    title: 'Mirror',
    description: 'Answers its validated input',
    input: z.strictObject({ query: z.string().trim().min(1), tags: z.array(z.string()).default([]), limit: z.number().nullable().default(10) }),
    output: z.unknown(),
    http: { method: 'POST', path: sharedInput ? '/api/v1/test/shared' : '/api/v1/test/own' },
    sharedInput,
    async handler(input) {
      return input;
    },
  });
}

const ctx = (): CallContext => ({ signal: new AbortController().signal, logger: silentLogger(), progress: () => undefined, host: 'http' });

describe('validated inputs shared between identical calls', () => {
  it('validates the same raw input once for a capability that declares sharedInput, and freezes the value', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(true));
    const first = (await registry.invoke('test.shared', { query: ' sourdough ', tags: ['rye'] }, ctx())) as { query: string; tags: string[] };
    const second = await registry.invoke('test.shared', { query: ' sourdough ', tags: ['rye'] }, ctx());
    expect(first).toEqual({ query: 'sourdough', tags: ['rye'], limit: 10 });
    expect(second).toBe(first);
    expect(Object.isFrozen(first.tags)).toBe(true);
    expect(() => first.tags.push('spelt')).toThrow(TypeError);
    // Another raw input is validated on its own.
    expect(await registry.invoke('test.shared', { query: 'rye', limit: 3 }, ctx())).toEqual({ query: 'rye', tags: [], limit: 3 });
  });

  it('validates every call of a capability that does not declare it, and every input JSON would not carry as it is', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(false));
    registry.register(mirror(true));
    const own = await registry.invoke('test.own', { query: 'a' }, ctx());
    expect(await registry.invoke('test.own', { query: 'a' }, ctx())).not.toBe(own);
    expect(Object.isFrozen(own)).toBe(false);
    // NaN reads as null in JSON: it must be refused by the schema, not answered from null's memo entry.
    await registry.invoke('test.shared', { query: 'a', limit: null }, ctx());
    const nan = await registry.invoke('test.shared', { query: 'a', limit: Number.NaN }, ctx()).catch((e: AppError) => e);
    expect((nan as AppError).code).toBe('INVALID_INPUT');
  });

  it('never remembers a refusal', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(true));
    for (let i = 0; i < 2; i++) {
      const error = await registry.invoke('test.shared', { query: '  ' }, ctx()).catch((e: AppError) => e);
      expect((error as AppError).code).toBe('INVALID_INPUT');
    }
  });
});
