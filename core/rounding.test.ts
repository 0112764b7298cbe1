import { describe, expect, it } from 'vitest';
import { roundConfidence, roundScore, roundTo } from './rounding.js';

describe('rounding', () => {
  it('keeps four decimals for scores and three for confidences', () => {
    expect(roundScore(0.123456)).toBe(0.1235);
    expect(roundConfidence(0.123456)).toBe(0.123);
    expect(roundTo(2 / 3, 2)).toBe(0.67);
  });
});
