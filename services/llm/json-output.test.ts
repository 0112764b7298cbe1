import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { parseModelJson } from './json-output.js';

describe('parseModelJson', () => {
  it('reads plain, fenced and prose-wrapped JSON', () => {
    expect(parseModelJson(' {"a": 1} ')).toEqual({ a: 1 });
    expect(parseModelJson('```json\n{"a": [1, 2]}\n```')).toEqual({ a: [1, 2] });
    expect(parseModelJson('```\n[1, 2]\n```')).toEqual([1, 2]);
    expect(parseModelJson('Here you go: {"a": {"b": true}} Hope that helps.')).toEqual({ a: { b: true } });
    expect(parseModelJson('["x", "y"] done')).toEqual(['x', 'y']);
  });

  it('throws UPSTREAM_FAILED for anything else', () => {
    for (const text of ['', 'no json here', '{"a": ', '{a: 1}']) {
      let thrown: unknown;
      try {
        parseModelJson(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).code).toBe('UPSTREAM_FAILED');
    }
  });
});
