import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';
import { coverageScores } from './coverage-scores.js';
import { OFFLINE_VERDICT, offlineVerdict, supportLevel } from './offline-verdict.js';
import type { VerdictOutcome } from './aggregate.js';

const claim = analyse('Marta Okafor has edited the Lakeside Courier since 2015 and founded its poetry prize');
const sentences = [
  'Home | News | Sport | Weather',
  'Marta Okafor has edited the Lakeside Courier since 2015.',
  'The Courier, a weekly newspaper, was founded in 1921.',
].map(analyse);

const outcome = (verdict: VerdictOutcome['verdict']): VerdictOutcome => ({ verdict, facts: [], strength: 0.9 });

describe('coverage scores', () => {
  it('count the share of the claim its best sentences state', () => {
    const scores = coverageScores(claim, sentences, [{ coverage: 0.6, parts: [1, 0.2] }]);
    // marta, okafor, edit, lakeside, courier, since of those and found, poetry, prize.
    expect(scores.best_sentence_overlap).toBeCloseTo(6 / 9, 2);
    expect(scores.best_two_cover).toBeGreaterThan(scores.best_sentence_overlap);
    expect(scores.fact_grade).toBe(0.6);
    expect(coverageScores(claim, [analyse('Heavy rain is expected this weekend.')], []).best_sentence_overlap).toBe(0);
  });
});

describe('offline verdict', () => {
  const rule = { score: 'best_sentence_overlap' as const, low: 0.2, high: 0.55 };
  const scores = (value: number) => ({
    best_sentence_overlap: value,
    best_two_cover: 0,
    fact_grade: 0,
    cover_and_grade: 0,
  });

  it('grades the claim by its coverage: true, partially_true, or unverifiable when the pages do not bear on it', () => {
    expect(offlineVerdict(outcome('partially_true'), scores(0.8), rule).verdict).toBe('true');
    expect(offlineVerdict(outcome('true'), scores(0.4), rule).verdict).toBe('partially_true');
    expect(offlineVerdict(outcome('partially_true'), scores(0.1), rule)).toMatchObject({
      verdict: 'unverifiable',
      strength: 0.1,
    });
  });

  it('leaves a contradicted claim to the stance rules', () => {
    expect(offlineVerdict(outcome('false'), scores(0.9), rule).verdict).toBe('false');
    expect(offlineVerdict(outcome('misleading'), scores(0.9), rule).verdict).toBe('misleading');
  });

  it('ships a fitted rule with ordered thresholds', () => {
    expect(OFFLINE_VERDICT.low).toBeLessThanOrEqual(OFFLINE_VERDICT.high);
    expect(supportLevel(OFFLINE_VERDICT.high, OFFLINE_VERDICT)).toBe('supported');
    expect(supportLevel(OFFLINE_VERDICT.low, OFFLINE_VERDICT)).toBe('partially_supported');
  });
});
