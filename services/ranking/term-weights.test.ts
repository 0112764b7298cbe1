import { describe, expect, it } from 'vitest';
import { SPEECH, WIKI, sentenceWith } from './fixtures/real-texts.js';
import { isFramingTerm } from './question-framing.js';
import { distinctiveWeights, termCounts, weightedShare } from './term-weights.js';
import { contentTerms } from './tokens.js';

const weightOf = (weights: { terms: string[]; weights: number[] }, word: string) =>
  weights.weights[weights.terms.indexOf(contentTerms(word)[0]!)];

describe('distinctiveWeights', () => {
  it('keeps the terms that name what a question is about, its framing words out', () => {
    const weights = distinctiveWeights(
      termCounts('What role did the composer play in Valkyria Chronicles III?', [WIKI, SPEECH]),
    );
    expect(weights.terms).toEqual(contentTerms('composer Valkyria Chronicles III'));
    for (const word of ['role', 'play', 'methods', 'utilized', 'mentioned', 'according'])
      expect(isFramingTerm(contentTerms(word)[0]!), word).toBe(true);
    expect(isFramingTerm(contentTerms('corporations')[0]!)).toBe(false);
  });

  it('weighs a term no page holds most: no sentence of these pages can say it', () => {
    const weights = distinctiveWeights(
      termCounts('Which role did Kirishima play in Valkyria Chronicles?', [WIKI, SPEECH]),
    );
    expect(weightOf(weights, 'Kirishima')).toBe(Math.log(3));
    expect(weightOf(weights, 'Kirishima')!).toBeGreaterThan(weightOf(weights, 'Valkyria')!);
    // The sentence that names the game holds the share of the question's terms the pages can hold, and no more.
    const named = weightedShare(weights, sentenceWith(WIKI, 'Senjō no Valkyria 3'));
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThan(0.6);
  });

  it('keeps a question made of framing words only whole', () => {
    const weights = distinctiveWeights(termCounts('What methods were used?', [WIKI]));
    expect(weights.terms).toEqual(contentTerms('methods used'));
  });
});
