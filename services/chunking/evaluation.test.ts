import { describe, expect, it } from 'vitest';
import { scoreQuestion } from './evaluation.js';
import type { Chunk } from './types.js';

const chunk = (index: number, start: number, end: number, tokens: number): Chunk => ({
  index,
  text: '',
  start,
  end,
  tokens,
});
const chunks = [chunk(0, 0, 10, 10), chunk(1, 11, 20, 10), chunk(2, 21, 30, 10)];

describe('scoreQuestion', () => {
  it('scores an excerpt inside one chunk as recalled', () => {
    expect(scoreQuestion(chunks, [{ start: 12, end: 18, tokens: 5 }])).toEqual({ recall: 1, iou: 0.5 });
  });

  it('needs two chunks for an excerpt across a boundary, stepping over the gap', () => {
    expect(scoreQuestion(chunks, [{ start: 5, end: 15, tokens: 8 }])).toEqual({ recall: 0, iou: 8 / 20 });
  });

  it('counts a chunk shared by several excerpts once', () => {
    const score = scoreQuestion(chunks, [
      { start: 0, end: 4, tokens: 3 },
      { start: 5, end: 9, tokens: 3 },
    ]);
    expect(score).toEqual({ recall: 1, iou: 6 / 10 });
  });

  it('uses the furthest-reaching of overlapping chunks', () => {
    const overlapping = [chunk(0, 0, 10, 10), chunk(1, 5, 15, 10), chunk(2, 12, 25, 10)];
    expect(scoreQuestion(overlapping, [{ start: 6, end: 14, tokens: 6 }])).toEqual({ recall: 1, iou: 0.6 });
  });
});
