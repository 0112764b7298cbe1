import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';
import { partsOf, reachOf } from './fact-parts.js';
import { decomposeClaim } from './facts.js';

const fact = (text: string) => decomposeClaim(text)[0]!;
const evidence = (...sentences: string[]) => sentences.map((s, i) => ({ analysis: analyse(s), inCover: i < 3 }));

describe('fact parts', () => {
  it('cuts a long statement at commas, brackets and linking words, keeping pieces too short to stand alone with the part before', () => {
    const parts = partsOf(
      fact(
        'Marta Okafor is the editor of the Lakeside Courier, a weekly newspaper founded in 1921 and still ' +
          'printed on Thursdays',
      ),
    );
    expect(parts.map((p) => p.text)).toEqual([
      'Marta Okafor is the editor of the Lakeside Courier',
      'a weekly newspaper founded in 1921',
      'still printed on Thursdays',
    ]);
    expect(partsOf(fact('The bridge opened in 1932')).map((p) => p.text)).toEqual(['The bridge opened in 1932']);
  });

  it('tells which parts the evidence states', () => {
    const claim = fact(
      'Marta Okafor is the editor of the Lakeside Courier, a weekly newspaper founded in 1921 and still ' +
        'printed on Thursdays',
    );
    const reach = reachOf(
      claim,
      evidence(
        'Marta Okafor has been editor of the Lakeside Courier since 2015.',
        'The Courier, a weekly newspaper, was founded in 1921 by two printers.',
      ),
    );
    expect(reach.parts[0]).toBe(1);
    expect(reach.parts[1]).toBeGreaterThanOrEqual(0.8);
    expect(reach.parts[2]).toBeLessThan(0.45); // "still printed on Thursdays" is on no sentence
    expect(reach.coverage).toBeGreaterThan(0.5);
    expect(reach.coverage).toBeLessThan(1);
  });
});
