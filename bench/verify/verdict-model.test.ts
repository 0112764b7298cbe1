import { describe, expect, it } from 'vitest';
import { assessClaim } from '../../plugins/verify/claims/check-claim.js';
import { fitSoftmax } from './softmax-fit.js';
import { featuresOf } from './verdict-features.js';
import { modelDecides, supportClass } from './verdict-model.js';

const PAGE = {
  url: 'https://example.org/courier',
  title: 'About the Lakeside Courier',
  text: [
    'Home | News | Sport | Weather | Subscribe',
    'Marta Okafor has been the editor of the Lakeside Courier since 2015.',
    'The Courier, a weekly newspaper, was founded in 1921 by two printers from the valley.',
    'Heavy rain is expected across the valley this weekend.',
  ].join('\n\n'),
  credibility: 0.5,
};

async function features(claim: string) {
  const assessment = await assessClaim(claim, [PAGE], { depth: 'quick', embedder: null, llm: null });
  return { assessment, features: featuresOf(claim, [PAGE.title], assessment) };
}

describe('verdict features', () => {
  it('tell a claim the page states from one it states in part and one it does not', async () => {
    const stated = await features('Marta Okafor has been the editor of the Lakeside Courier since 2015.');
    const part = await features(
      'Marta Okafor, the editor of the Lakeside Courier, won the national press award in 2019.',
    );
    const absent = await features('The Brookfield orchestra toured Japan with a new conductor.');
    expect(stated.features.claim_best_sentence).toBe(1);
    expect(stated.features.page_terms_missing).toBe(0);
    expect(stated.features.figures_unmentioned).toBe(0);
    expect(part.features.claim_best_sentence).toBeLessThan(stated.features.claim_best_sentence);
    expect(part.features.page_terms_missing).toBeGreaterThan(0);
    expect(part.features.figures_unmentioned).toBe(1);
    expect(absent.features.claim_best_three).toBeLessThan(part.features.claim_best_three);
    expect(absent.features.names_unmentioned).toBe(1);
    expect(modelDecides(absent.assessment.byRules)).toBe(false);
    expect(modelDecides(stated.assessment.byRules)).toBe(true);
    for (const value of Object.values(part.features))
      expect(value).toBeGreaterThanOrEqual(0), expect(value).toBeLessThanOrEqual(1);
  });
});

describe('verdict model', () => {
  it('fits weights that separate three classes along one feature, and decides by them', () => {
    const x = Array.from({ length: 60 }, (_, i) => [(i % 3) + (i % 7) / 20, (i % 5) / 5]);
    const y = x.map((_, i) => i % 3);
    const weights = fitSoftmax(['a', 'b'], x, y, 3, { l2: 0.001 });
    expect(supportClass([0.1, 0.5], weights).label).toBe('supported');
    expect(supportClass([1.1, 0.5], weights).label).toBe('partially_supported');
    expect(supportClass([2.1, 0.5], weights).label).toBe('not_supported');
    expect(supportClass([2.1, 0.5], weights).probability).toBeGreaterThan(0.5);
  });
});
