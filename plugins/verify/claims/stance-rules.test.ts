import { describe, expect, it } from 'vitest';
import { analyse, termCoverage } from './analysis.js';
import { judgeByRules } from './stance-rules.js';

function judge(fact: string, sentence: string, relevance = 0.8) {
  const f = analyse(fact);
  const s = analyse(sentence);
  return judgeByRules({ fact: f, sentence: s, coverage: termCoverage(f, s), relevance });
}

describe('stance rules', () => {
  it('supports when the sentence states the fact, more with the same figure or year', () => {
    const plain = judge(
      'The Eiffel Tower was completed in 1889',
      'Construction of the Eiffel Tower was completed in March 1889.',
    );
    expect(plain.stance).toBe('supports');
    expect(plain.reasons).toContain('the same year');
  });

  it('contradicts on polarity: one negated, the other not', () => {
    const j = judge(
      'The Great Wall of China is visible from the Moon',
      'The Great Wall of China is not visible from the Moon with the naked eye.',
    );
    expect(j.stance).toBe('contradicts');
    expect(j.reasons).toContain('the evidence is negated, the fact is not');
    expect(
      judge(
        "Climate change isn't increasing extreme weather damage costs",
        'Climate change is increasing extreme weather damage costs worldwide.',
      ).stance,
    ).toBe('contradicts');
  });

  it('contradicts on direction words the two do not share', () => {
    const j = judge(
      'Global temperatures have leveled off since 1998',
      'Global temperatures have kept rising since 1998, by about 0.2 °C per decade.',
    );
    expect(j.stance).toBe('contradicts');
    expect(j.reasons).toContain('the evidence points the other way (direction words)');
    // "global warming" in both is a name for the subject, not a direction.
    expect(
      judge(
        'Global warming is driving polar bears toward extinction',
        'Global warming is driving polar bears toward extinction in the Arctic.',
      ).stance,
    ).toBe('supports');
  });

  it('contradicts on antonyms, on a differing figure of the same kind, and when the sentence calls the statement false', () => {
    expect(
      judge(
        'Most scientists agree that the warming is natural',
        'Most scientists agree that the warming is anthropogenic.',
      ).reasons,
    ).toContain('opposite words (natural/anthropogenic)');
    const figure = judge('The Eiffel Tower is 500 metres tall', 'The Eiffel Tower is 330 metres tall.');
    expect(figure.stance).toBe('contradicts');
    expect(figure.reasons).toContain('a figure of the same kind differs');
    expect(
      judge('The Great Wall can be seen from the Moon', 'That the Great Wall can be seen from the Moon is a myth.')
        .reasons,
    ).toContain('the evidence calls the statement false');
  });

  it('does not confirm a figure it does not state', () => {
    expect(judge('The Eiffel Tower is 500 metres tall', 'The Eiffel Tower is a tall iron tower in Paris.').stance).toBe(
      'unrelated',
    );
  });

  it('counts hedged evidence for less', () => {
    const firm = judge('Sea levels are rising', 'Sea levels are rising along every coast.');
    const hedged = judge('Sea levels are rising', 'Sea levels may be rising along every coast.');
    expect(hedged.stance).toBe('supports');
    expect(hedged.strength).toBeLessThan(firm.strength);
  });

  it('marks support that goes on to qualify the fact', () => {
    const j = judge(
      'Arctic sea ice grew in 2013',
      'Arctic sea ice grew in 2013 compared with 2012, but the long-term trend is still declining.',
    );
    expect(j.stance).toBe('supports');
    expect(j.reasons).toContain('qualifies the fact');
  });

  it('calls a sentence below the relevance bar unrelated whatever it says', () => {
    expect(
      judge(
        'The Great Wall of China is visible from the Moon',
        'The Great Wall of China is not visible from the Moon.',
        0.1,
      ).stance,
    ).toBe('unrelated');
  });
});
