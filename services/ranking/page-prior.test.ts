import { describe, expect, it } from 'vitest';
import { SPEECH, WIKI } from './fixtures/real-texts.js';
import { pagePriors, type PageToWeigh } from './page-prior.js';
import { questionFocus } from './question-focus.js';
import { focusWeights, termCounts, weightedShare } from './term-weights.js';
import { contentTerms } from './tokens.js';

const GARDEN =
  'Tomatoes grow well in large containers filled with rich compost and placed in full sun. Water the plants ' +
  'deeply and regularly, and feed them once the first flowers appear.';

function priorsFor(question: string, pages: PageToWeigh[]): number[] {
  return pagePriors(
    questionFocus(
      question,
      pages.map((p) => `${p.title}\n${p.text}`),
    ),
    pages,
  );
}

describe('pagePriors', () => {
  it('prefers the page whose title and lead match the question, over a better-placed page', () => {
    const pages = [
      { title: 'State of the Union 2024', text: SPEECH, position: 1 },
      { title: 'Growing tomatoes', text: GARDEN, position: 2 },
      { title: 'Valkyria Chronicles III', text: WIKI, position: 3 },
    ];
    const priors = priorsFor('Who composed the music for Valkyria Chronicles III?', pages);
    expect(priors.indexOf(Math.max(...priors))).toBe(2);
    const speech = priorsFor('What did the President say about credit card late fees?', pages);
    expect(speech.indexOf(Math.max(...speech))).toBe(0);
  });

  it('falls back on the search order when no page matches', () => {
    const pages = [
      { title: 'Growing tomatoes', text: GARDEN, position: 1 },
      { title: 'Tomato care', text: GARDEN, position: 2 },
    ];
    const [first, second] = priorsFor('price of gold bullion', pages);
    expect(first!).toBeGreaterThan(second!);
  });
});

describe('focusWeights', () => {
  it('weighs the term that picks one page out above the subject every page shares, the focus twice', () => {
    const weights = focusWeights(
      termCounts('Valkyria game composer', [WIKI, `${WIKI} composer`.replace(/Valkyria/g, 'X'), SPEECH]),
    );
    const weightOf = (word: string) => weights.weights[weights.terms.indexOf(contentTerms(word)[0]!)]!;
    expect(weightOf('valkyria')).toBeGreaterThan(weightOf('game'));
    expect(weightedShare(weights, 'Valkyria')).toBeGreaterThan(weightedShare(weights, 'game'));
    expect(weightedShare(weights, 'Valkyria game composer')).toBe(1);
  });
});
