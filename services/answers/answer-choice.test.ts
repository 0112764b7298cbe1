import { describe, expect, it } from 'vitest';
import {
  ANSWER_FEATURES,
  choosePage,
  PAGE_FEATURES,
  parseAnswerChoiceModel,
  shippedAnswerChoice,
  type AnswerChoiceModel,
  type PageEvidence,
} from './answer-choice.js';

function page(citation: number, values: Partial<PageEvidence>): PageEvidence {
  return {
    citation,
    titleLead: 0,
    wholePage: 0,
    position: 1 / Math.sqrt(citation),
    passage: 0.5,
    sentence: 0.5,
    distinctive: 0.5,
    novelty: 0.5,
    ...values,
  };
}

// Page choice by the best passage alone; answered when its distinctive share is high.
const byPassage: AnswerChoiceModel = {
  page: { weights: PAGE_FEATURES.map((name) => (name === 'passage' ? 10 : 0)) },
  answer: { intercept: -5, weights: ANSWER_FEATURES.map((name) => (name === 'distinctive' ? 10 : 0)), threshold: 0.5 },
};

describe('choosePage', () => {
  it('leads with the page the page model scores highest, wherever it stands in the results', () => {
    const choice = choosePage(byPassage, [page(1, { passage: 0.6 }), page(3, { passage: 0.9, distinctive: 0.9 })]);
    expect(choice).toMatchObject({ citation: 3, answered: true });
    expect(choice.confidence).toBeCloseTo(1 / (1 + Math.exp(-4)), 6);
  });

  it("abstains when the leading page's confidence is under the threshold, and with no page to quote", () => {
    expect(choosePage(byPassage, [page(1, { passage: 0.9, distinctive: 0.2 })])).toMatchObject({
      citation: 1,
      answered: false,
    });
    expect(choosePage(byPassage, [])).toEqual({ citation: null, confidence: 0, answered: false });
  });

  it('reads the confidence off the leading page alone: more pages that answer alike do not lower it', () => {
    const alone = choosePage(byPassage, [page(1, { passage: 0.9, distinctive: 0.9 })]);
    const amongEquals = choosePage(
      byPassage,
      [1, 2, 3, 4].map((n) => page(n, { passage: 0.9, distinctive: 0.9 })),
    );
    expect(amongEquals.confidence).toBe(alone.confidence);
    expect(amongEquals.citation).toBe(1);
  });
});

describe('the model file', () => {
  it('refuses weights that do not match the features, naming the field', () => {
    expect(() =>
      parseAnswerChoiceModel({ page: { weights: [1] }, answer: { intercept: 0, weights: [], threshold: 0.5 } }),
    ).toThrow(/weights/);
  });

  it('ships a model whose weights keep the signs the fit imposes', () => {
    const model = shippedAnswerChoice();
    const novelty = PAGE_FEATURES.indexOf('novelty');
    model.page.weights.forEach((w, i) => expect(i === novelty ? w <= 0 : w >= 0).toBe(true));
    const answerNovelty = ANSWER_FEATURES.indexOf('novelty');
    model.answer.weights.forEach((w, i) => expect(i === answerNovelty ? w <= 0 : w >= 0).toBe(true));
  });
});
