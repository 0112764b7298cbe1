import { describe, expect, it } from 'vitest';
import { bioTag, entityLabelProblem } from './entity-labels.js';
import { relevanceFromLogits } from './passage-reranker.js';
import { judgeFromLogits, stanceLabelProblem } from './stance-model.js';

describe('entity labels', () => {
  it('reads the usual label schemes as BIO tags over PER, ORG, LOC, MISC', () => {
    expect(['B-PER', 'I-ORG', 'B-LOC', 'I-MISC', 'O'].map(bioTag)).toEqual(['B-PER', 'I-ORG', 'B-LOC', 'I-MISC', 'O']);
    expect(['I-person', 'B-organization', 'S-GPE', 'ORG', 'E-LOC'].map(bioTag)).toEqual([
      'I-PER',
      'B-ORG',
      'B-LOC',
      'I-ORG',
      'I-LOC',
    ]);
    expect(['B-DATE', 'LABEL_3', 'B-'].map(bioTag)).toEqual(['O', 'O', 'O']);
  });

  it('refuses labels that name no entity type', () => {
    expect(entityLabelProblem(['O', 'B-PER'])).toBeNull();
    expect(entityLabelProblem(['LABEL_0', 'LABEL_1'])).toMatch(/name no PER, ORG, LOC or MISC/);
  });
});

describe('stance from NLI logits', () => {
  const labels = ['contradiction', 'entailment', 'neutral'];

  it('takes the winning label, its probability as strength, neutral as unrelated', () => {
    expect(judgeFromLogits(labels, [0, 4, 0])).toMatchObject({
      stance: 'supports',
      reasons: ['model: entailment (0.965)'],
    });
    expect(judgeFromLogits(labels, [4, 0, 0]).stance).toBe('contradicts');
    expect(judgeFromLogits(labels, [0, 0, 4])).toMatchObject({ stance: 'unrelated', strength: 0 });
    expect(judgeFromLogits(labels, [0, 4, 0]).strength).toBeCloseTo(0.965, 3);
  });

  it('needs both entailment and contradiction among the labels', () => {
    expect(stanceLabelProblem(labels)).toBeNull();
    expect(stanceLabelProblem(['LABEL_0', 'LABEL_1'])).toMatch(/name no entailment and contradiction/);
  });
});

it('reads a reranker head: one logit by its sigmoid, several by the last label', () => {
  expect(relevanceFromLogits([0])).toBeCloseTo(0.5);
  expect(relevanceFromLogits([3])).toBeGreaterThan(relevanceFromLogits([1]));
  expect(relevanceFromLogits([0, 2])).toBeCloseTo(0.881, 3);
});
