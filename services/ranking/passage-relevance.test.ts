import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashingEmbedding } from '../chunking/hashing-embedding.js';
import type { Embedder } from '../embeddings/types.js';
import { rankPagePassages } from './page-passages.js';
import { passageFeatures, probability, scorePassages } from './passage-relevance.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Real text (public domain; services/chunking/fixtures/PROVENANCE.md). */
const SPEECH = readFileSync(join(HERE, '../chunking/fixtures/state_of_the_union.md'), 'utf8');

function embedder(): Embedder {
  const embed = hashingEmbedding(256);
  return {
    embed: async (texts) => (await embed(texts)).map((v) => Float32Array.from(v)),
    info: () => ({ id: 'test/hashing', source: 'embedded', dimensions: 256 }),
    close: async () => undefined,
  };
}

describe('calibrated passage relevance', () => {
  it('puts the passage that answers first, with scores in 0..1', async () => {
    const [page] = await rankPagePassages(
      'how many people can no longer be denied health insurance for a preexisting condition',
      [{ title: 'speech', text: SPEECH }],
      embedder(),
    );
    expect(page!.passages[0]!.text).toContain('denied health insurance because of a preexisting condition');
    for (const p of page!.passages) {
      expect(p.relevance.score).toBeGreaterThanOrEqual(0);
      expect(p.relevance.score).toBeLessThanOrEqual(1);
    }
    expect(page!.score).toBe(page!.passages[0]!.relevance.score);
    expect(page!.score).toBeGreaterThan(0.5);
  });

  it('is absolute: a passage scores the same whatever else is scored beside it, apart from the rarity weights', async () => {
    const passage = {
      text: 'Over 100 million of you can no longer be denied health insurance because of a preexisting condition.',
    };
    const alone = (await passageFeatures('health insurance preexisting condition', [passage], null))[0]!;
    const withOthers = (
      await passageFeatures('health insurance preexisting condition', [passage, { text: 'The weather is fine.' }], null)
    )[0]!;
    expect(withOthers.coverage).toBe(alone.coverage);
    expect(withOthers.bigrams).toBe(alone.bigrams);
  });

  it("grows with the share of the question's terms a passage holds, and stays below 0.5 when it holds none", async () => {
    const query = 'credit card late fees';
    const scores = await scorePassages(
      query,
      [
        { text: 'Nothing related at all here.' },
        { text: 'Late fees are common.' },
        { text: 'Credit card late fees fell from $32 to $8.' },
      ],
      null,
    );
    expect(scores[0]!.score).toBeLessThan(scores[1]!.score);
    expect(scores[1]!.score).toBeLessThan(scores[2]!.score);
    expect(scores[0]!.score).toBeLessThan(0.5);
    expect(scores.every((s) => s.semantic === null)).toBe(true);
    expect(probability({ coverage: 1, weighted: 1, bigrams: 1, title: 0, semantic: null })).toBeGreaterThan(0.8);
  });
});
