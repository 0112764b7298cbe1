import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability, type CallContext } from './capability.js';
import type { AppError } from './errors.js';
import { deepFreeze } from './frozen-json.js';
import { silentLogger } from './logger.js';
import { CapabilityRegistry } from './registry.js';

/** A capability that hands its validated input back, so a test can see whether two calls shared one. */
function mirror(sharedInput: boolean) {
  return defineCapability({
    id: sharedInput ? 'test.shared' : 'test.own',
    title: 'Mirror',
    description: 'Answers its validated input',
    input: z.strictObject({
      query: z.string().trim().min(1),
      tags: z.array(z.string()).default([]),
      limit: z.number().nullable().default(10),
    }),
    output: z.unknown(),
    http: { method: 'POST', path: sharedInput ? '/api/v1/test/shared' : '/api/v1/test/own' },
    sharedInput,
    async handler(input) {
      return input;
    },
  });
}

const ctx = (): CallContext => ({
  signal: new AbortController().signal,
  logger: silentLogger(),
  progress: () => undefined,
  host: 'http',
});

describe('validated inputs shared between identical calls', () => {
  it('validates the same raw input once for a capability that declares sharedInput, and freezes the value', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(true));
    const first = (await registry.invoke('test.shared', { query: ' sourdough ', tags: ['rye'] }, ctx())) as {
      query: string;
      tags: string[];
    };
    const second = await registry.invoke('test.shared', { query: ' sourdough ', tags: ['rye'] }, ctx());
    expect(first).toEqual({ query: 'sourdough', tags: ['rye'], limit: 10 });
    expect(second).toBe(first);
    expect(Object.isFrozen(first.tags)).toBe(true);
    expect(() => first.tags.push('spelt')).toThrow(TypeError);
    // Another raw input is validated on its own.
    expect(await registry.invoke('test.shared', { query: 'rye', limit: 3 }, ctx())).toEqual({
      query: 'rye',
      tags: [],
      limit: 3,
    });
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
    const nan = await registry
      .invoke('test.shared', { query: 'a', limit: Number.NaN }, ctx())
      .catch((e: AppError) => e);
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

  it('knows a deep-frozen raw input by identity, for each capability on its own', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(true));
    const lengths = defineCapability({
      id: 'test.lengths',
      title: 'Lengths',
      description: 'Answers the length of its query',
      input: z.strictObject({ query: z.string().transform((q) => q.length), tags: z.array(z.string()).default([]) }),
      output: z.unknown(),
      http: { method: 'POST', path: '/api/v1/test/lengths' },
      sharedInput: true,
      async handler(input) {
        return input;
      },
    });
    registry.register(lengths);
    const raw = { query: ' rye ', tags: ['a'] };
    deepFreeze(raw);
    const first = await registry.invoke('test.shared', raw, ctx());
    expect(await registry.invoke('test.shared', raw, ctx())).toBe(first);
    // The same frozen value sent to another capability is validated by that capability's schema.
    expect(await registry.invoke('test.lengths', raw, ctx())).toEqual({ query: 5, tags: ['a'] });
    expect(await registry.invoke('test.shared', raw, ctx())).toEqual({ query: 'rye', tags: ['a'], limit: 10 });
  });

  it('freezes a value known by identity even when its text is too long to keep', async () => {
    const registry = new CapabilityRegistry();
    registry.register(mirror(true));
    const raw = { query: 'x', tags: Array.from({ length: 800 }, (_, i) => `tag-${i}`) };
    deepFreeze(raw);
    const first = (await registry.invoke('test.shared', raw, ctx())) as { tags: string[] };
    expect(await registry.invoke('test.shared', raw, ctx())).toBe(first);
    expect(Object.isFrozen(first.tags)).toBe(true);
    // A refusal of a frozen input is not remembered either.
    const bad = { query: '   ' };
    deepFreeze(bad);
    for (let i = 0; i < 2; i++)
      expect(((await registry.invoke('test.shared', bad, ctx()).catch((e: AppError) => e)) as AppError).code).toBe(
        'INVALID_INPUT',
      );
  });
});
