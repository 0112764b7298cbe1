import { describe, expect, it } from 'vitest';
import type { AppError } from '../../core/errors.js';
import { parseJsonBody, SharedJsonBodies } from './json-body.js';

const JSON_TYPE = 'application/json';
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const refusal = (parse: () => unknown): string => {
  try {
    parse();
  } catch (error) {
    return (error as AppError).code;
  }
  return 'accepted';
};

describe('JSON bodies parsed once for the same bytes', () => {
  it('gives the same deep-frozen value for the same bytes, and its own for other bytes', () => {
    const shared = new SharedJsonBodies();
    const first = shared.parse(bytes('{"query":"café","engines":["bing"]}'), JSON_TYPE) as { engines: string[] };
    expect(shared.parse(bytes('{"query":"café","engines":["bing"]}'), 'application/json; charset=utf-8')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.engines)).toBe(true);
    // The same JSON spelt otherwise is other bytes: parsed on its own, equal.
    const spaced = shared.parse(bytes('{ "query": "café", "engines": ["bing"] }'), JSON_TYPE);
    expect(spaced).not.toBe(first);
    expect(spaced).toEqual(first);
  });

  it('still checks the charset, and never remembers a refusal', () => {
    const shared = new SharedJsonBodies();
    const body = bytes('{"query":"rye"}');
    shared.parse(body, JSON_TYPE);
    expect(refusal(() => shared.parse(body, 'application/json; charset=iso-8859-1'))).toBe('UNSUPPORTED_MEDIA_TYPE');
    for (let i = 0; i < 2; i++)
      expect(refusal(() => shared.parse(bytes('{"query":'), JSON_TYPE))).toBe('MALFORMED_JSON');
    for (let i = 0; i < 2; i++)
      expect(refusal(() => shared.parse(bytes('{"__proto__":{}}'), JSON_TYPE))).toBe('INVALID_INPUT');
    // Invalid UTF-8 that would decode to the same text as a valid body (a replacement character) is refused, not taken
    // for it.
    shared.parse(bytes('{"query":"\uFFFD"}'), JSON_TYPE);
    expect(
      refusal(() => shared.parse(Buffer.concat([bytes('{"query":"'), Buffer.from([0xff]), bytes('"}')]), JSON_TYPE)),
    ).toBe('MALFORMED_JSON');
  });

  it('parses a large body each time, unfrozen, as the plain parser does', () => {
    const shared = new SharedJsonBodies();
    const large = bytes(JSON.stringify({ query: 'x', text: 'y'.repeat(5000) }));
    const once = shared.parse(large, JSON_TYPE);
    expect(shared.parse(large, JSON_TYPE)).not.toBe(once);
    expect(Object.isFrozen(once)).toBe(false);
    expect(parseJsonBody(large, JSON_TYPE)).toEqual(once);
  });
});
