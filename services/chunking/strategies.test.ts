import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text.js';
import { expectValidChunks, readFixture } from './fixtures/expect-chunks.js';
import { countTokens } from './tokenizer.js';

const SPEECH = readFixture('state_of_the_union.md');

describe('fixed', () => {
  it('repeats about overlapTokens tokens between neighbouring windows', async () => {
    const chunks = await chunkText(SPEECH, { strategy: 'fixed', maxTokens: 100, overlapTokens: 20 });
    expectValidChunks(SPEECH, chunks, 100);
    const codePoints = [...SPEECH];
    for (let i = 1; i < chunks.length; i++) {
      const shared = codePoints.slice(chunks[i]!.start, chunks[i - 1]!.end).join('');
      expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
      expect(countTokens(shared)).toBeGreaterThanOrEqual(15);
      expect(countTokens(shared)).toBeLessThanOrEqual(25);
    }
    expect(chunks.filter((chunk) => chunk.tokens >= 95).length).toBeGreaterThan(chunks.length * 0.8);
  });

  it('has no overlap when asked for none', async () => {
    const chunks = await chunkText(SPEECH, { strategy: 'fixed', maxTokens: 100, overlapTokens: 0 });
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
  });
});

describe('sentence and paragraph', () => {
  it('sentence chunks end at sentence ends', async () => {
    const text = 'The cat sat on the mat. It was warm there! Was it comfortable? Yes, very much so. The end.';
    const chunks = await chunkText(text, { strategy: 'sentence', maxTokens: 12 });
    expectValidChunks(text, chunks, 12);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.text).toMatch(/^[A-Z].*[.!?]$/);
    expect(chunks.map((chunk) => chunk.text).join(' ')).toBe(text);
  });

  it('paragraph chunks keep paragraphs whole and pack small ones', async () => {
    const text =
      'First short paragraph.\n\nSecond short one.\n\n' +
      'A long paragraph sentence here. '.repeat(20) +
      '\n\nLast one.';
    const chunks = await chunkText(text, { strategy: 'paragraph', maxTokens: 40 });
    expectValidChunks(text, chunks, 40);
    expect(chunks[0]!.text).toBe('First short paragraph.\n\nSecond short one.');
    // The oversized paragraph falls back to sentences: every middle chunk ends on a full stop.
    for (const chunk of chunks.slice(1, -1)) expect(chunk.text.endsWith('here.')).toBe(true);
    expect(chunks.at(-1)!.text).toBe('Last one.');
  });
});

describe('recursive', () => {
  it('prefers blank lines, then lines, and overlaps packed pieces', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Line ${i} says something short.`).join('\n');
    const chunks = await chunkText(text, { strategy: 'recursive', maxTokens: 30, overlapTokens: 8 });
    expectValidChunks(text, chunks, 30);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('Line ')).toBe(true);
      expect(chunk.text.endsWith('short.')).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
  });
});

describe('markdown', () => {
  const doc = [
    'Intro before any heading.',
    '# Guide',
    'Welcome to the guide.',
    '## Install',
    'Run this:',
    '```bash\nnpm install quarry\n# not a heading\nnpm run build\n```',
    'Then start it.',
    '## Usage ##',
    '### Advanced',
    'Details about advanced usage.',
    '# Appendix',
    'The end.',
  ].join('\n\n');

  it('keeps sections together with their heading path', async () => {
    const chunks = await chunkText(doc, { strategy: 'markdown', maxTokens: 256 });
    expectValidChunks(doc, chunks, 256);
    expect(chunks.map((chunk) => chunk.heading_path)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Usage', 'Advanced'],
      ['Appendix'],
    ]);
    expect(chunks[2]!.text).toContain('# not a heading');
    expect(chunks[3]!.text.startsWith('## Usage ##\n\n### Advanced')).toBe(true);
  });

  it('splits an oversized section around its code fence, not inside it', async () => {
    const chunks = await chunkText(doc, { strategy: 'markdown', maxTokens: 20 });
    expectValidChunks(doc, chunks, 20);
    const code = chunks.find((chunk) => chunk.text.includes('npm install'))!;
    expect(code.text).toContain('```bash');
    expect(code.text.endsWith('```')).toBe(true);
    expect(code.heading_path).toEqual(['Guide', 'Install']);
  });
});

describe('semantic', () => {
  const cats = ['Cats purr softly.', 'A cat naps in the sun.', 'Kittens chase yarn.', 'My cat likes fish.'];
  const rockets = [
    'Rockets burn fuel.',
    'The rocket reached orbit.',
    'Engines ignite at launch.',
    'Boosters land upright.',
  ];
  const text = [...cats, ...rockets].join(' ');
  // Two-dimensional fake embedding: one axis per topic, decided by a word list.
  const topicEmbed = async (texts: string[]): Promise<number[][]> =>
    texts.map((sentence) => (/cat|kitten|purr/i.test(sentence) ? [1, 0.1] : [0.1, 1]));

  it('splits where the topic changes', async () => {
    const chunks = await chunkText(text, { strategy: 'semantic', maxTokens: 256, embed: topicEmbed });
    expectValidChunks(text, chunks, 256);
    expect(chunks.map((chunk) => chunk.text)).toEqual([cats.join(' '), rockets.join(' ')]);
  });

  it('still packs each topic under the budget', async () => {
    const chunks = await chunkText(text, { strategy: 'semantic', maxTokens: 12, embed: topicEmbed });
    expectValidChunks(text, chunks, 12);
    expect(
      chunks.some((chunk) => /cat|purr|kitten/i.test(chunk.text) && /rocket|engine|booster/i.test(chunk.text)),
    ).toBe(false);
  });

  it('reports an embedding model that answers with the wrong number of vectors', async () => {
    await expect(chunkText(text, { strategy: 'semantic', embed: async () => [[1]] })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });
});
