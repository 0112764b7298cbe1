import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { codePointOffsets } from './code-points.js';
import { countTokens, encodeText, TOKENIZER_NAME, tokenEndOffsets } from './tokenizer.js';

describe('tokenizer', () => {
  it('is cl100k_base and treats special-token strings as text', () => {
    expect(TOKENIZER_NAME).toBe('cl100k_base (gpt-tokenizer)');
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('maps token ends to character offsets, never inside a character', () => {
    const text = 'Hi 😀 👨‍👩‍👧 中文 ok';
    const ends = tokenEndOffsets(text);
    expect(ends).toHaveLength(encodeText(text).length);
    expect(ends.at(-1)).toBe(text.length);
    for (let i = 1; i < ends.length; i++) expect(ends[i]).toBeGreaterThanOrEqual(ends[i - 1]!);
    for (const end of ends) {
      const unit = text.charCodeAt(end - 1);
      expect(unit >= 0xd800 && unit <= 0xdbff).toBe(false); // not between the halves of a surrogate pair
    }
  });
});

describe('long texts', () => {
  it('encodes long prose in segments without changing a single token', () => {
    const speech = readFileSync(new URL('fixtures/state_of_the_union.md', import.meta.url), 'utf8');
    expect(encodeText(speech)).toEqual(encode(speech));
  });

  it('stays fast on runs with no spaces (one encoder piece would be quadratic)', () => {
    const started = performance.now();
    const ends = tokenEndOffsets('中文字符没有空格'.repeat(20_000));
    expect(ends.at(-1)).toBe(160_000);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('codePointOffsets', () => {
  it('counts astral characters once', () => {
    const text = 'a😀b𝒳c';
    const toCodePoint = codePointOffsets(text);
    expect([0, 1, 3, 4, 6, 7].map(toCodePoint)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('is the identity without surrogates', () => {
    expect(codePointOffsets('héllo 中文')(7)).toBe(7);
  });
});
