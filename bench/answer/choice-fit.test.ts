import { describe, expect, it } from 'vitest';
import type { PageEvidence } from '../../services/answers/answer-choice.js';
import { CONTROL_ABSTAIN_TARGET, decide, fitAnswerChoice, type ChoiceQuestion } from './choice-fit.js';
import { seededRandom } from '../../core/seeded-random.js';

function page(citation: number, answers: boolean, random: () => number): PageEvidence {
  // The page that answers has the better passage and holds more of the question's terms; the noise overlaps them.
  return {
    citation,
    titleLead: random(),
    wholePage: random(),
    position: 1 / Math.sqrt(citation),
    passage: (answers ? 0.7 : 0.5) + 0.2 * random(),
    sentence: 0.4 + 0.2 * random(),
    distinctive: (answers ? 0.6 : 0.3) + 0.3 * random(),
    novelty: 0.5 + 0.3 * random(),
  };
}

function questions(count: number, seed: number): ChoiceQuestion[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const control = i % 4 === 3;
    const gold = control ? -1 : Math.floor(random() * 5);
    const pages = Array.from({ length: 5 }, (_, n) => page(n + 1, n === gold, random));
    return { control, answerable: true, pages, gold: pages.map((_, n) => n === gold) };
  });
}

describe('fitAnswerChoice', () => {
  it('learns to lead with the answering page, far above the first result, on questions it did not see', () => {
    const model = fitAnswerChoice(questions(200, 1));
    const unseen = questions(200, 2).filter((q) => !q.control);
    const right = unseen.filter((q) => q.gold[q.pages.findIndex((p) => p.citation === decide(model, q).citation)]);
    const first = unseen.filter((q) => q.gold[0]);
    expect(right.length / unseen.length).toBeGreaterThan(0.8);
    expect(first.length / unseen.length).toBeLessThan(0.35);
  });

  it('sets the threshold so that the share of training controls the issue asks for abstains', () => {
    const train = questions(200, 3);
    const model = fitAnswerChoice(train);
    const controls = train.filter((q) => q.control);
    const abstained = controls.filter((q) => !decide(model, q).answered).length / controls.length;
    expect(abstained).toBeGreaterThanOrEqual(CONTROL_ABSTAIN_TARGET);
    expect(abstained).toBeLessThan(CONTROL_ABSTAIN_TARGET + 0.05);
  });

  it('abstains before the model when no passage read reaches the bar', () => {
    const model = fitAnswerChoice(questions(100, 4));
    const [asked] = questions(1, 5);
    expect(decide(model, { ...asked!, answerable: false }).answered).toBe(false);
  });
});
