import { describe, expect, it } from 'vitest';
import { deepFreeze, frozenJsonPieces } from './frozen-json.js';

/** The pieces' bytes in order (the HTTP host joins them the same way, hosts/http/reply-bytes.ts). */
function encodeWithFrozenParts(answer: object): Buffer | undefined {
  const pieces = frozenJsonPieces(answer);
  return pieces && Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}

/** A cached search answer's shape: frozen metadata and results, fresh per-request fields beside them. */
function cachedAnswer() {
  const stored = {
    search_metadata: {
      query: 'zürich "quotes" \u2028 😀',
      engines: ['a', 'b'],
      engine_errors: {},
      categories: undefined,
    },
    results: [
      { rank: 1, title: 'Ünïcode — title', url: 'https://example.org/?q=1&r=2', score: 0.25, thumbnail: undefined },
    ],
  };
  deepFreeze(stored);
  return stored;
}

describe('frozen-json', () => {
  it('encodes an answer with frozen parts to exactly the UTF-8 of JSON.stringify', () => {
    const stored = cachedAnswer();
    const answer = {
      ...stored,
      processing_time_ms: 3,
      cached: true,
      skipped: undefined,
      request_id: 'req_1',
      f: () => 1,
    };
    expect(encodeWithFrozenParts(answer)).toEqual(Buffer.from(JSON.stringify(answer)));
    // Again, from the remembered encoding of the same parts.
    const again = { ...stored, processing_time_ms: 12, cached: true, request_id: 'req_2' };
    expect(encodeWithFrozenParts(again)).toEqual(Buffer.from(JSON.stringify(again)));
    // The frozen parts are the remembered bytes themselves, not copies made per answer.
    const [, metadataBytes] = frozenJsonPieces(again)!;
    expect(frozenJsonPieces({ ...stored, request_id: 'req_4' })![1]).toBe(metadataBytes);
    // Fresh values between and after frozen ones, and a frozen part first.
    const mixed = {
      request_id: 'req_3',
      results: stored.results,
      n: 1,
      search_metadata: stored.search_metadata,
      last: 'é',
    };
    expect(encodeWithFrozenParts(mixed)).toEqual(Buffer.from(JSON.stringify(mixed)));
    const first = { results: stored.results, skipped: undefined };
    expect(encodeWithFrozenParts(first)?.toString('utf8')).toBe(JSON.stringify(first));
  });

  it('encodes a part that replaced a frozen one afresh', () => {
    const stored = cachedAnswer();
    encodeWithFrozenParts({ ...stored });
    const changed = { ...stored, search_metadata: { ...stored.search_metadata, webhook_unused: true } };
    expect(encodeWithFrozenParts(changed)).toEqual(Buffer.from(JSON.stringify(changed)));
  });

  it('leaves answers without deep-frozen parts to the usual serialiser', () => {
    const shallow = Object.freeze({ nested: { n: 1 } });
    expect(encodeWithFrozenParts({ a: shallow })).toBeUndefined();
    expect(encodeWithFrozenParts({ a: 1 })).toBeUndefined();
    const frozen = { n: 1 };
    deepFreeze(frozen);
    expect(encodeWithFrozenParts([frozen])).toBeUndefined();
    expect(encodeWithFrozenParts(frozen)).toBeUndefined();
  });

  it('freezes every level', () => {
    const value = { a: [{ b: { c: 'x' } }] };
    deepFreeze(value);
    expect(Object.isFrozen(value.a[0]!.b)).toBe(true);
  });
});
