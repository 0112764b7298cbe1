import { describe, expect, it } from 'vitest';
import { AGGREGATION, decideVerdict, factOutcome, type JudgedCandidate } from './aggregate.js';
import { decomposeClaim } from './facts.js';
import { FIGURE_DIFFERS, YEAR_DIFFERS, type Stance } from './stance-rules.js';

function evidence(stance: Stance, strength: number, reasons: string[] = [], credibility = 0.5): JudgedCandidate {
  return {
    page: { url: 'https://example.org/', title: 't', text: 's', credibility },
    sentence: 's',
    start: 0,
    end: 1,
    analysis: decomposeClaim('s')[0]!.analysis,
    coverage: 1,
    semantic: 1,
    relevance: 1,
    judgement: { stance, strength, reasons },
    weight: 0.5 + 0.5 * credibility,
  };
}

const [central, other] = decomposeClaim(
  'The Eiffel Tower was completed in 1889, and it is painted with gold leaf every year',
);

describe('verdict aggregation', () => {
  const strong = (stance: Stance, reasons: string[] = []) => [
    evidence(stance, 0.9, reasons),
    evidence(stance, 0.9, reasons),
  ];

  it('follows the documented table', () => {
    const verdict = (a: JudgedCandidate[], b: JudgedCandidate[]) =>
      decideVerdict([factOutcome(central!, a), factOutcome(other!, b)]).verdict;
    expect(verdict(strong('supports'), strong('supports'))).toBe('true');
    expect(verdict(strong('supports'), [])).toBe('partially_true');
    expect(verdict(strong('contradicts'), strong('supports'))).toBe('false');
    expect(verdict(strong('supports'), strong('contradicts'))).toBe('misleading');
    expect(verdict(strong('supports', ['qualifies the fact']), strong('supports'))).toBe('misleading');
    expect(verdict([], [])).toBe('unverifiable');
    expect(verdict([...strong('supports'), ...strong('contradicts')], [])).toBe('unverifiable');
  });

  it('weighs evidence by the credibility of its source', () => {
    const weak = factOutcome(central!, [evidence('supports', 0.7, [], 0), evidence('supports', 0.5, [], 0)]);
    const credible = factOutcome(central!, [evidence('supports', 0.7, [], 1), evidence('supports', 0.5, [], 1)]);
    expect(weak.status).toBe('no_evidence');
    expect(credible.status).toBe('supported');
  });

  it('takes the strongest supporting sentence, not the sum of many half-relevant ones', () => {
    const many = factOutcome(central!, [
      evidence('supports', 0.45),
      evidence('supports', 0.45),
      evidence('supports', 0.45),
    ]);
    expect(many.status).toBe('no_evidence');
    expect(many.support).toBeCloseTo(0.75 * 0.45, 2);
  });
  it('tells full support from partial by what the evidence holds of the fact', () => {
    const support = strong('supports');
    expect(factOutcome(central!, support, AGGREGATION, { coverage: 1, parts: [1, 0.9] }).status).toBe('supported');
    // One part of the fact is not in its sentences, or the sentences hold too little of it together.
    expect(factOutcome(central!, support, AGGREGATION, { coverage: 0.9, parts: [1, 0.2] }).status).toBe(
      'partly_supported',
    );
    expect(factOutcome(central!, support, AGGREGATION, { coverage: 0.5, parts: [0.6, 0.6] }).status).toBe(
      'partly_supported',
    );
    // Without enough support, one part stated in full still counts for part of the fact.
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.6, parts: [1, 0] }).status).toBe('partly_supported');
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.4, parts: [0.5, 0.3] }).status).toBe('no_evidence');
    const verdict = (a: ReturnType<typeof factOutcome>, b: ReturnType<typeof factOutcome>) =>
      decideVerdict([a, b]).verdict;
    expect(
      verdict(factOutcome(central!, support), factOutcome(other!, [], AGGREGATION, { coverage: 0.6, parts: [1, 0] })),
    ).toBe('partially_true');
  });
  it('grades a fact by what its sentences hold, so a paraphrase the stance rules miss still supports it', () => {
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.9, parts: [1, 0.8] }).status).toBe('supported');
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.6, parts: [0.7, 0.5] }).status).toBe(
      'partly_supported',
    );
    // A model that read the sentences and found none stating the fact is not overruled by the words they share.
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.9, parts: [0.7, 0.7] }, true).status).toBe(
      'no_evidence',
    );
    expect(factOutcome(central!, [], AGGREGATION, { coverage: 0.9, parts: [0.7, 0.7] }).status).toBe('supported');
    expect(
      factOutcome(central!, strong('supports'), AGGREGATION, { coverage: 0.4, parts: [0.5, 0.3] }, true).status,
    ).toBe('partly_supported');
  });
  it('counts a named thing no page mentions against full support', () => {
    const reach = (nameShare: number) => ({
      coverage: 0.9,
      parts: [1, 0.8],
      unmentioned: { names: nameShare > 0 ? ['eiffel'] : [], nameShare, figures: [] },
    });
    expect(factOutcome(central!, [], AGGREGATION, reach(0)).status).toBe('supported');
    expect(factOutcome(central!, [], AGGREGATION, reach(1)).status).toBe('partly_supported');
  });
  it("ignores another figure when the pages also state the fact's own", () => {
    const otherYear = [evidence('contradicts', 0.9, [FIGURE_DIFFERS]), evidence('contradicts', 0.9, [YEAR_DIFFERS])];
    const reach = (figures: string[]) => ({
      coverage: 0.9,
      parts: [1, 0.8],
      unmentioned: { names: [], nameShare: 0, figures },
    });
    expect(factOutcome(central!, otherYear, AGGREGATION, reach([])).status).toBe('supported');
    expect(factOutcome(central!, otherYear, AGGREGATION, reach(['1889'])).status).toBe('contradicted');
    // Another reason to disagree still counts.
    expect(
      factOutcome(
        central!,
        [evidence('contradicts', 0.9, [FIGURE_DIFFERS, 'opposite words (open/close)'])],
        AGGREGATION,
        reach([]),
      ).status,
    ).toBe('contradicted');
  });
  it('reports no strength when nothing relevant was found, so the confidence of unverifiable is low', () => {
    expect(decideVerdict([factOutcome(central!, [])]).strength).toBe(0);
  });
});
