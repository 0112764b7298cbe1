import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';
import { pageMentions, unmentioned } from './mentions.js';

const page = pageMentions(
  [
    'Harbour Lights',
    'The Harbour Lights festival began in Kelso in 1987.',
    'About 12,000 visitors came last summer, the organisers said.',
  ].map(analyse),
);

describe('what the pages mention', () => {
  it('finds the named things and figures of a fact that no page states', () => {
    const missing = unmentioned(
      analyse('The festival, founded by Ada Brennan in Kelso in 1987, draws 12,000 visitors'),
      page,
    );
    expect(missing.names.sort()).toEqual(['ada', 'brennan']);
    expect(missing.nameShare).toBeCloseTo(2 / 3, 3);
    expect(missing.figures).toEqual([]);
  });

  it('reads figures as quantities and years, so another way of writing one still matches and another value does not', () => {
    expect(unmentioned(analyse('Around 12000 people attended the festival'), page).figures).toEqual([]);
    expect(unmentioned(analyse('The festival began in 1990 and drew 40,000 visitors'), page).figures.sort()).toEqual([
      '1990',
      '40,000',
    ]);
  });

  it('counts nothing against a fact that names nothing', () => {
    expect(unmentioned(analyse('the festival was popular'), page)).toEqual({ names: [], nameShare: 0, figures: [] });
  });
});
