import { describe, expect, it } from 'vitest';
import { SPEECH, WIKI } from './fixtures/real-texts.js';
import { pagePriorParts, type PagePriorParts, type PageToWeigh } from './page-prior.js';
import { questionFocus } from './question-focus.js';
import { focusWeights, termCounts, weightedShare } from './term-weights.js';
import { contentTerms } from './tokens.js';

const GARDEN =
  'Tomatoes grow well in large containers filled with rich compost and placed in full sun. Water the plants ' +
  'deeply and regularly, and feed them once the first flowers appear.';

function partsFor(question: string, pages: PageToWeigh[]): PagePriorParts[] {
  return pagePriorParts(
    questionFocus(
      question,
      pages.map((p) => `${p.title}\n${p.text}`),
    ),
    pages,
  );
}

const best = (values: number[]) => values.indexOf(Math.max(...values));

describe('pagePriorParts', () => {
  it('the title and lead match and the whole-page match pick the page the question is about, whatever its position', () => {
    const pages = [
      { title: 'State of the Union 2024', text: SPEECH, position: 1 },
      { title: 'Growing tomatoes', text: GARDEN, position: 2 },
      { title: 'Valkyria Chronicles III', text: WIKI, position: 3 },
    ];
    const game = partsFor('Who composed the music for Valkyria Chronicles III?', pages);
    expect(best(game.map((p) => p.titleLead))).toBe(2);
    expect(game.map((p) => p.wholePage)[2]).toBe(1);
    const speech = partsFor('What did the President say about credit card late fees?', pages);
    expect(best(speech.map((p) => p.wholePage))).toBe(0);
  });

  it('gives the search order as 1/√position, and nothing else when no page matches', () => {
    const pages = [
      { title: 'Growing tomatoes', text: GARDEN, position: 1 },
      { title: 'Tomato care', text: GARDEN, position: 4 },
    ];
    const parts = partsFor('price of gold bullion', pages);
    expect(parts.map((p) => p.position)).toEqual([1, 0.5]);
    expect(parts.map((p) => p.wholePage)).toEqual([0, 0]);
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
