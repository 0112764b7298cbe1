import { describe, expect, it } from 'vitest';
import { hashingEmbedder } from '../../plugins/neural/fixtures/hashing-embedder.js';
import { passageScorer, type ScorerProfile } from './scorers.js';

const query = 'credit card late fees';
const passages = [
  { text: 'Nothing related at all here.' },
  { text: 'Late fees are common.' },
  { text: 'Credit card late fees fell from $32 to $8.' },
];

describe('passage scorers by profile', () => {
  it.each<ScorerProfile>(['lexical', 'bm25', 'embedding', 'blended', 'calibrated'])(
    '%s ranks the passage holding the whole query first and the unrelated one last',
    async (profile) => {
      const scores = await passageScorer(profile, hashingEmbedder()).score(query, passages);
      expect(scores).toHaveLength(3);
      expect(scores[2]).toBeGreaterThan(scores[1]!);
      expect(scores[1]).toBeGreaterThan(scores[0]!);
    },
  );

  it('scores on words alone where no model is given, and refuses the profiles that need one', async () => {
    const lexical = await passageScorer('lexical').score(query, passages);
    // half the terms in the text; all of them as a phrase
    [0, 0.3, 0.8].forEach((expected, i) => expect(lexical[i]).toBeCloseTo(expected, 10));
    expect((await passageScorer('calibrated').score(query, passages))[2]).toBeGreaterThan(0.5);
    expect(() => passageScorer('embedding')).toThrow(/needs an embedding model/);
    expect(() => passageScorer('blended', null)).toThrow(/needs an embedding model/);
  });

  it('weighs the title in the lexical profile', async () => {
    const [withTitle, without] = await passageScorer('lexical').score(query, [
      { title: 'Credit card late fees', text: 'A rule from 2024.' },
      { text: 'A rule from 2024.' },
    ]);
    expect(withTitle).toBe(1);
    expect(without).toBe(0);
  });
});
