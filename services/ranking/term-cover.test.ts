import { describe, expect, it } from 'vitest';
import { coverTerms } from './term-cover.js';
import { contentTerms } from './tokens.js';

const termsOf = (text: string) => new Map(contentTerms(text).map((t) => [t, 1]));
const sentenceSet = (text: string) => new Set(contentTerms(text));

describe('term cover', () => {
  // A news page: the date on one line, the event in prose, navigation around them.
  const page = [
    'Skip to content Home News Sport Weather',
    'The harbour ferry between Oldport and Eastwick was relaunched by the city council.',
    'Published 14 March 2019',
    'The relaunched ferry runs every thirty minutes and carries bicycles free of charge.',
  ].map(sentenceSet);

  it('takes the sentences that together hold the query, the one adding most first', () => {
    const cover = coverTerms(
      termsOf('The city council relaunched the Oldport ferry, which carries bicycles free'),
      page,
      3,
    );
    expect(cover.picked).toEqual([1, 3]);
    expect(cover.share).toBe(1);
    expect(cover.missing).toEqual([]);
  });

  it('stops at the limit and names what no sentence taken holds', () => {
    const cover = coverTerms(termsOf('The Oldport ferry carries bicycles and won a design award'), page, 1);
    expect(cover.picked).toHaveLength(1);
    expect(cover.missing).toEqual(expect.arrayContaining(['design', 'award']));
    expect(cover.share).toBeLessThan(1);
  });

  it('weighs terms: missing a heavy term costs more', () => {
    const light = coverTerms(
      new Map([
        ['ferry', 1],
        ['award', 1],
      ]),
      page,
      3,
    ).share;
    const heavy = coverTerms(
      new Map([
        ['ferry', 1],
        ['award', 3],
      ]),
      page,
      3,
    ).share;
    expect(light).toBe(0.5);
    expect(heavy).toBe(0.25);
  });

  it('takes nothing when no sentence holds a term', () => {
    expect(coverTerms(termsOf('volcanic eruption'), page, 3)).toEqual({
      picked: [],
      share: 0,
      missing: ['volcanic', 'eruption'],
    });
  });
});
