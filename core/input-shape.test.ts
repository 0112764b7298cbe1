import { describe, expect, it } from 'vitest';
import { findInputShapeProblem, jsonNestsDeeperThan, MAX_INPUT_DEPTH } from './input-shape.js';

describe('findInputShapeProblem', () => {
  it.each([
    ['{"__proto__": {"polluted": true}}', '__proto__'],
    ['{"query": "x", "constructor": {"prototype": {}}}', 'constructor'],
    ['{"schema": {"fields": [{"prototype": 1}]}}', 'schema.fields.0.prototype'],
    ['{"a": [1, {"b": {"__proto__": null}}]}', 'a.1.b.__proto__'],
  ])('names the forbidden key in %s', (json, field) => {
    expect(findInputShapeProblem(JSON.parse(json))).toMatchObject({ field });
  });

  it('refuses nesting past the limit, without recursion', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(findInputShapeProblem(deep)?.message).toMatch(`more than ${MAX_INPUT_DEPTH} levels`);
    const justFits = JSON.parse('{"a":'.repeat(MAX_INPUT_DEPTH) + '1' + '}'.repeat(MAX_INPUT_DEPTH));
    expect(findInputShapeProblem(justFits)).toBeNull();
  });

  it('accepts ordinary input, including keys that merely contain the words', () => {
    expect(findInputShapeProblem({ query: '__proto__', proto: 1, constructors: [1, 2], my_prototype: {} })).toBeNull();
    expect(findInputShapeProblem(null)).toBeNull();
    expect(findInputShapeProblem('text')).toBeNull();
  });
});

describe('jsonNestsDeeperThan', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonNestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[[[{{{{"}', 1)).toBe(false);
  });

  it('scans a megabyte of brackets in a few milliseconds', () => {
    const text = '['.repeat(1_000_000);
    const started = performance.now();
    expect(jsonNestsDeeperThan(text, 64)).toBe(true);
    expect(jsonNestsDeeperThan('[1],'.repeat(250_000), 64)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
