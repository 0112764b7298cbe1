import { describe, expect, it } from 'vitest';
import { joinReply } from './reply-bytes.js';

describe('joinReply', () => {
  it('joins text as UTF-8 and bytes as they are, in order', () => {
    const frozen = Buffer.from('{"title":"Zürich — ☃ 😀"}');
    const reply = joinReply(['{"results":', frozen, ',"request_id":"req_é"}']);
    expect(reply.toString('utf8')).toBe('{"results":{"title":"Zürich — ☃ 😀"},"request_id":"req_é"}');
    expect(reply.length).toBe(Buffer.byteLength(reply.toString('utf8')));
  });

  it('carves replies past the size Node pools from one shared buffer', () => {
    const frozen = Buffer.alloc(4500, 'a');
    const [first, second] = [joinReply(['[', frozen, ']']), joinReply(['[', frozen, ']'])];
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(first.byteOffset + first.length);
  });

  it('never hands out the same bytes twice, across slabs', () => {
    const frozen = Buffer.alloc(5000, 'a');
    // Enough ~5 kB replies to fill several 128 kB slabs.
    const replies = Array.from({ length: 80 }, (_, i) => joinReply([`{"n":${i},"r":"`, frozen, '"}']));
    replies.forEach((reply, i) => expect(reply.subarray(0, 12).toString()).toMatch(new RegExp(`^\\{"n":${i},`)));
    replies[0]!.fill(0x7a);
    expect(replies.slice(1).every((reply) => !reply.includes('zzzz'))).toBe(true);
    replies.forEach((reply, i) => i > 0 && expect(reply.toString()).toBe(`{"n":${i},"r":"${'a'.repeat(5000)}"}`));
  });

  it('gives a large reply a buffer of its own', () => {
    const big = Buffer.alloc(64 * 1024, 'b');
    const reply = joinReply(['[', big, ']']);
    expect(reply.length).toBe(big.length + 2);
    expect(reply.buffer.byteLength).toBe(reply.length);
    expect(reply.toString().endsWith('b]')).toBe(true);
  });
});
