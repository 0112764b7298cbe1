import { describe, expect, it } from 'vitest';
import { FINANCE } from './fixtures/real-texts.js';
import { sentences } from './passages.js';
import { splitRunOnSentences } from './run-on-sentences.js';

describe('splitRunOnSentences', () => {
  it('cuts a lower-cased paragraph that Unicode rules leave whole into its sentences, verbatim', () => {
    const run = sentences(FINANCE).find((s) => s.text.includes('we paid dividends of $0.68'))!.text;
    expect(run.split(' ').length).toBeGreaterThan(60);
    const pieces = splitRunOnSentences(run);
    expect(pieces).toContain(
      'we paid dividends of $0.68 per common share for each of the years ended december 31, 2013, 2012 and 2011.',
    );
    expect(pieces.join(' ')).toBe(run.trim());
    for (const piece of pieces.slice(0, -1)) expect(piece).toMatch(/\.$/);
  });

  it('leaves abbreviations, initials and decimals alone', () => {
    expect(
      splitRunOnSentences(
        'the u.s. government and acme inc. agreed on approx. 1.5 million, e.g. in cash. the rest follows.',
      ),
    ).toEqual(['the u.s. government and acme inc. agreed on approx. 1.5 million, e.g. in cash.', 'the rest follows.']);
  });

  it('keeps a sentence that needs no cut as it is', () => {
    expect(splitRunOnSentences('Released in January 2011 in Japan, it was praised.')).toEqual([
      'Released in January 2011 in Japan, it was praised.',
    ]);
  });
});
