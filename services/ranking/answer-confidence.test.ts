import { describe, expect, it } from 'vitest';
import { answerConfidence, novelty } from './answer-confidence.js';

describe('answerConfidence', () => {
  const clear = { rival: 0.4, margin: 0.3, novelty: 0.5, distinctive: 0.8 };

  it('is confident when the leading page stands out and doubtful when another page answers as well', () => {
    expect(answerConfidence(clear)).toBeGreaterThan(0.8);
    expect(answerConfidence({ ...clear, rival: 0.8, margin: 0 })).toBeLessThan(0.45);
  });

  it("grows with the share of the question's distinctive terms the sentence holds and the page margin (the margin only up to its cap)", () => {
    expect(answerConfidence({ ...clear, distinctive: 0.2 })).toBeLessThan(answerConfidence(clear));
    expect(answerConfidence({ ...clear, distinctive: 1 })).toBeGreaterThan(answerConfidence(clear));
    expect(answerConfidence({ ...clear, margin: 0.1 })).toBeLessThan(answerConfidence(clear));
    expect(answerConfidence({ ...clear, margin: 2 })).toBe(answerConfidence(clear));
  });
});

describe('novelty', () => {
  it('is the share of the sentence terms the question lacks', () => {
    expect(novelty(new Set(['dividend', 'paid']), ['dividend', 'paid', 'share', 'year'])).toBe(0.5);
    expect(novelty(new Set(['x']), [])).toBe(0);
  });
});
