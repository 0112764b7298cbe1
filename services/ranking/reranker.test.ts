import { expect, it } from 'vitest';
import { rerankerForRequest, rerankScores, withReranker, type PassageReranker } from './reranker.js';

/** Scores a passage by how many times it says "zebra"; records what it was asked. */
function zebraReranker(topK: number) {
  const asked: string[][] = [];
  const reranker: PassageReranker = {
    id: 'zebra-model',
    topK,
    score: async (_query, passages) => {
      asked.push(passages);
      return passages.map((p) => p.split('zebra').length - 1);
    },
  };
  return { reranker, asked };
}

it('reorders only the top k, handing out the same scores in the model order', async () => {
  const { reranker, asked } = zebraReranker(3);
  const texts = ['a horse', 'one zebra', 'zebra zebra', 'zebra zebra zebra, but scored low'];
  const scores = [0.9, 0.8, 0.7, 0.1];
  expect(await rerankScores('q', texts, scores, reranker)).toEqual([0.7, 0.8, 0.9, 0.1]);
  expect(asked).toEqual([['a horse', 'one zebra', 'zebra zebra']]);
});

it('leaves one passage alone and names the reranker in model_used', async () => {
  const { reranker, asked } = zebraReranker(5);
  expect(await rerankScores('q', ['only'], [0.4], reranker)).toEqual([0.4]);
  expect(asked).toEqual([]);
  expect(withReranker('extractive', reranker)).toBe('extractive, reranked by zebra-model');
  expect(withReranker('extractive', null)).toBe('extractive');
});

it("names the reranker in one request's model_used only once the model has ordered something for it", async () => {
  const { reranker } = zebraReranker(5);
  const failing: PassageReranker = { ...reranker, score: async () => null };
  const failed = rerankerForRequest(failing)!;
  expect(await rerankScores('q', ['a', 'zebra'], [0.2, 0.1], failed)).toEqual([0.2, 0.1]);
  expect(withReranker('extractive', failed)).toBe('extractive');
  const idle = rerankerForRequest(reranker)!;
  expect(withReranker('extractive', idle)).toBe('extractive');
  await rerankScores('q', ['a', 'zebra'], [0.2, 0.1], idle);
  expect(withReranker('extractive', idle)).toBe('extractive, reranked by zebra-model');
  expect(rerankerForRequest(null)).toBeNull();
});
