import { describe, expect, it } from 'vitest';
import { contentQualityScore, QUALITY_WEIGHTS, type QualityInputs } from './quality.js';

const article: QualityInputs = {
  success: true,
  mainWords: 900,
  mainChars: 5400,
  pageChars: 8000,
  linkChars: 300,
  paragraphs: 20,
  hasTitle: true,
  hasDescription: true,
  hasAuthor: true,
  hasDate: true,
};

describe('contentQualityScore', () => {
  it('weights sum to 1 and a long, dense, documented article scores high', () => {
    expect(Object.values(QUALITY_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1);
    expect(contentQualityScore(article)).toBeGreaterThan(0.9);
  });

  it('is 0 for failures and empty text', () => {
    expect(contentQualityScore({ ...article, success: false })).toBe(0);
    expect(contentQualityScore({ ...article, mainWords: 0, mainChars: 0 })).toBe(0);
  });

  it('drops for short texts, link lists, a small share of the page and missing metadata', () => {
    const full = contentQualityScore(article);
    expect(contentQualityScore({ ...article, mainWords: 60, mainChars: 360, paragraphs: 3 })).toBeLessThan(full - 0.2);
    expect(contentQualityScore({ ...article, linkChars: 4000 })).toBeLessThan(full - 0.15);
    expect(contentQualityScore({ ...article, pageChars: 60000 })).toBeLessThan(full - 0.1);
    expect(
      contentQualityScore({ ...article, hasTitle: false, hasDescription: false, hasAuthor: false, hasDate: false }),
    ).toBeCloseTo(full - QUALITY_WEIGHTS.metadata, 3);
  });
});
