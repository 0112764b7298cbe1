import { describe, expect, it } from 'vitest';
import { bm25Scores } from './bm25.js';

describe('bm25Scores', () => {
  it('scores blocks with the query terms, rarer terms higher', () => {
    const scores = bm25Scores('hornworms leaves', [
      'Hornworms eat leaves.',
      'Leaves turn yellow.',
      'Leaves fall.',
      'Water deeply.',
    ]);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[3]).toBe(0);
  });
  it('ignores stop words in the query: a query of nothing else scores every text 0', () => {
    expect(bm25Scores('what is the', ['What is the answer?', 'The end.'])).toEqual([0, 0]);
  });
});
