/**
 * Callers' JSON Schemas and line diffs through the extraction worker's entry
 * point (called in-process: the code the pool runs). A schema that is not one,
 * too large, or too slow to check (a backtracking pattern) is an INVALID_INPUT
 * with a stable reason; a diff past its bounds is null, not a stall.
 */
import { describe, expect, it } from 'vitest';
import run from '../../workers/extract.worker.js';
import { checkJsonSchema, MAX_SCHEMA_CHARS } from './json-schema-check.js';
import { lineDiff, MAX_DIFF_CHARS } from './line-diff.js';
import { unwrap, type ParseOutcome } from './worker-tasks.js';

const STONE = {
  type: 'object',
  properties: { name: { type: 'string' }, hardness: { type: 'number' } },
  required: ['name', 'hardness'],
};

async function check(schema: Record<string, unknown>, value?: unknown) {
  const task = { kind: 'json-schema' as const, schema, field: 'formats: json schema' };
  const outcome = (await run(
    value === undefined ? task : { ...task, value: { json: value } },
  )) as ParseOutcome<'json-schema'>;
  return unwrap(outcome);
}

describe('JSON Schema checks in the extraction worker', () => {
  it('a matching value is valid; a wrong one comes with what is wrong', async () => {
    expect(await check(STONE, { name: 'granite', hardness: 6 })).toEqual({ valid: true, problems: [] });
    const wrong = await check(STONE, { name: 'granite', hardness: 'hard' });
    expect(wrong.valid).toBe(false);
    expect(wrong.problems).toEqual([{ instancePath: '/hardness', message: 'must be number' }]);
  });

  it('without a value, only whether the schema compiles', async () => {
    expect(await check(STONE)).toEqual({ valid: true, problems: [] });
    await expect(check({ type: 'no-such-type' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('formats: json schema: not a usable JSON Schema'),
      details: { reason: 'SCHEMA_INVALID' },
    });
  });

  it('a backtracking pattern is stopped at the time limit and named, and the thread goes on', () => {
    const hostile = { type: 'string', pattern: '^(a+)+$' };
    const started = performance.now();
    expect(() =>
      checkJsonSchema({ schema: hostile, field: 'formats: json schema', value: { json: `${'a'.repeat(40)}!` } }, 200),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: { reason: 'SCHEMA_TOO_SLOW', timeLimitMs: 200 } }),
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    // The same compiled schema still answers a value it can check quickly.
    expect(checkJsonSchema({ schema: hostile, field: 'f', value: { json: 'aaa' } }, 200)).toEqual({
      valid: true,
      problems: [],
    });
  });

  it('a schema larger than the bound is refused before it is compiled', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(30) }]),
    );
    await expect(check({ type: 'object', properties })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { reason: 'SCHEMA_TOO_LARGE', maxChars: MAX_SCHEMA_CHARS },
    });
  });
});

describe('line diffs in the extraction worker', () => {
  it('a unified diff of two texts, as a patch and as text', async () => {
    const outcome = (await run({
      kind: 'line-diff',
      name: 'https://example.org/a',
      before: 'one\ntwo\nthree\n',
      after: 'one\nTWO\nthree\n',
      context: 3,
    })) as ParseOutcome<'line-diff'>;
    const diff = unwrap(outcome)!;
    expect(diff.text).toContain('-two\n+TWO');
    expect(diff.patch.hunks).toHaveLength(1);
    expect(diff.patch.hunks[0]!.lines).toEqual([' one', '-two', '+TWO', ' three']);
  });

  it('an edit past the bounds is null within the time limit', () => {
    const lines = (seed: string) => Array.from({ length: 20_000 }, (_, i) => `${seed} line ${i}`).join('\n');
    const started = performance.now();
    expect(lineDiff({ name: 'u', before: lines('old'), after: lines('new'), context: 3 }, 300)).toBeNull();
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('a text over the size bound is refused with its reason', () => {
    expect(() => lineDiff({ name: 'u', before: 'x'.repeat(MAX_DIFF_CHARS + 1), after: '', context: 3 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: { reason: 'DIFF_TOO_LARGE', maxChars: MAX_DIFF_CHARS },
      }),
    );
  });
});
