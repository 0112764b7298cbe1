import { describe, expect, it } from 'vitest';
import { cleanClaim, decomposeClaim } from './facts.js';

const texts = (claim: string) => decomposeClaim(claim).map((f) => [f.text, f.central]);

describe('claim decomposition by rules', () => {
  it('keeps a claim with one statement whole, lists included', () => {
    expect(texts('The sun could cause freezing weather, earthquakes and famine, say scientists')).toEqual([
      ['The sun could cause freezing weather, earthquakes and famine, say scientists', true],
    ]);
  });

  it('splits clauses that are statements of their own; the first main clause is central', () => {
    expect(texts('The Eiffel Tower was completed in 1889, and it is painted with gold leaf every year')).toEqual([
      ['The Eiffel Tower was completed in 1889', true],
      ['it is painted with gold leaf every year', false],
    ]);
    expect(texts('Global temperatures have leveled off; we are heading for cooler weather')).toEqual([
      ['Global temperatures have leveled off', true],
      ['we are heading for cooler weather', false],
    ]);
  });

  it('makes the main clause central after a leading concession', () => {
    expect(texts('Although sea ice grew in 2013, the long-term trend is falling')).toEqual([
      ['Although sea ice grew in 2013', false],
      ['the long-term trend is falling', true],
    ]);
  });

  it('cleans quotes, citation marks and trailing punctuation', () => {
    expect(cleanClaim('"The sky is green [citation needed]."')).toBe('The sky is green');
  });

  it('reads negation, direction, figures and names of each fact', () => {
    const [fact] = decomposeClaim("Climate change isn't increasing extreme weather damage costs by 20% in Europe");
    expect(fact!.analysis.negations).toBe(1);
    expect([...fact!.analysis.directions]).toEqual(['up']);
    expect(fact!.analysis.quantities.map((q) => q.unit)).toEqual(['percent']);
    expect([...fact!.analysis.entities]).toEqual(['europ']);
  });
});
