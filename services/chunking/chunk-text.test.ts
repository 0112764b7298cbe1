import { describe, expect, it } from 'vitest';
import { isAppError } from '../../core/errors.js';
import { chunkText, pickStrategy } from './chunk-text.js';
import { expectValidChunks, readFixture } from './fixtures/expect-chunks.js';
import { hashingEmbedding } from './hashing-embedding.js';
import { CHUNK_STRATEGIES, type ChunkStrategy } from './types.js';

const EMOJI_TEXT = [
  'Hello 👋🏽 world! The family 👨‍👩‍👧‍👦 went out. 🎉🎉🎉 Party time at 𝒳 and 🇫🇷.',
  'Second paragraph 😀 with a flag 🏳️‍🌈 and music 🎵. Short one.',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 mathematical letters 𝔞𝔯𝔢 astral too. Ending with emoji 🚀',
].join('\n\n');

const CJK_TEXT = [
  '今天天气很好。我们去公园散步吧！公园里有很多人在跑步。',
  '日本語の文章もあります。東京は大きな都市です。😀絵文字も入っています。',
  '한국어 문장도 있습니다. 서울은 아름답습니다.',
].join('\n\n');

const MARKDOWN_TEXT = [
  'Intro before any heading 📘.',
  '# Guide',
  'Welcome to the guide. It has sections.',
  '## Install',
  'Run this:',
  '```bash\nnpm install quarry\n# not a heading\n```',
  '## Usage',
  '### Advanced',
  'Details about 高级 usage 🚀.',
].join('\n\n');

const TEXTS: Record<string, string> = {
  emoji: EMOJI_TEXT,
  cjk: CJK_TEXT,
  markdown: MARKDOWN_TEXT,
  'state of the union': readFixture('state_of_the_union.md'),
  wikitext: readFixture('wikitexts-head.md'),
};

const embed = hashingEmbedding(64);

describe('chunkText invariants', () => {
  for (const strategy of CHUNK_STRATEGIES) {
    for (const [name, text] of Object.entries(TEXTS)) {
      for (const maxTokens of [8, 64, 256]) {
        it(`${strategy} on ${name} at ${maxTokens} tokens gives exact substrings within budget`, async () => {
          const chunks = await chunkText(text, {
            strategy,
            maxTokens,
            overlapTokens: Math.floor(maxTokens / 4),
            embed,
          });
          expect(chunks.length).toBeGreaterThan(0);
          expectValidChunks(text, chunks, maxTokens);
        });
      }
    }
    it(`${strategy} keeps an emoji whole when the budget is smaller than it`, async () => {
      const text = 'a 👨‍👩‍👧‍👦 b 🏳️‍🌈 c';
      const chunks = await chunkText(text, { strategy, maxTokens: 2, overlapTokens: 0, embed });
      expectValidChunks(text, chunks, 2);
    });
  }

  it('returns no chunks for empty or blank text', async () => {
    expect(await chunkText('', { strategy: 'recursive' })).toEqual([]);
    expect(await chunkText(' \n\n ', { strategy: 'auto' })).toEqual([]);
  });

  it('counts offsets in code points, not UTF-16 units', async () => {
    const text = '😀😀 x. Next sentence here.';
    const [first] = await chunkText(text, { strategy: 'sentence', maxTokens: 256 });
    expect(first).toMatchObject({ start: 0, end: [...text].length, text });
    expect(first!.end).toBe(text.length - 2);
  });
});

describe('chunkText options', () => {
  const expectInvalid = async (promise: Promise<unknown>, message: RegExp): Promise<void> => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(error) && error.code).toBe('INVALID_INPUT');
    expect((error as Error).message).toMatch(message);
  };

  it('refuses semantic chunking without an embedding model', async () => {
    await expectInvalid(chunkText('One. Two.', { strategy: 'semantic' }), /embedding model/);
  });

  it('refuses unknown strategies and impossible budgets', async () => {
    await expectInvalid(chunkText('x', { strategy: 'words' as ChunkStrategy }), /strategy/);
    await expectInvalid(chunkText('x', { strategy: 'fixed', maxTokens: 0 }), /maxTokens/);
    await expectInvalid(chunkText('x', { strategy: 'fixed', maxTokens: 10, overlapTokens: 10 }), /overlapTokens/);
    await expectInvalid(
      chunkText('x', { strategy: 'semantic', embed, breakpointPercentile: 101 }),
      /breakpointPercentile/,
    );
  });

  it('caps the default overlap for small budgets', async () => {
    const chunks = await chunkText('word '.repeat(100), { strategy: 'fixed', maxTokens: 10 });
    expect(chunks.length).toBeGreaterThan(10);
  });
});

describe('auto', () => {
  it('picks markdown for headings, paragraph for blank lines, sentence otherwise', () => {
    expect(pickStrategy(MARKDOWN_TEXT)).toBe('markdown');
    expect(pickStrategy('One paragraph.\n\nAnother one.')).toBe('paragraph');
    expect(pickStrategy('Just sentences. On one line.\nAnd a second line.')).toBe('sentence');
    expect(pickStrategy('```\n# a comment in code\n```\n\nText after.')).toBe('paragraph');
    expect(pickStrategy('#hashtag is not a heading. Nor this.')).toBe('sentence');
  });

  it('gives the same chunks as the strategy it picks', async () => {
    for (const text of [MARKDOWN_TEXT, CJK_TEXT, 'Plain. Text. Here.']) {
      const auto = await chunkText(text, { strategy: 'auto', maxTokens: 16 });
      const picked = await chunkText(text, { strategy: pickStrategy(text), maxTokens: 16 });
      expect(auto).toEqual(picked);
    }
    const markdownChunks = await chunkText(MARKDOWN_TEXT, { strategy: 'auto' });
    expect(markdownChunks.every((chunk) => Array.isArray(chunk.heading_path))).toBe(true);
  });
});
