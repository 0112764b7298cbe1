import { describe, expect, it } from 'vitest';
import { chooseByInnerFolds, crossValidate, scoreFinalFold, summarise, type Procedure } from './cross-validate.js';
import { FINAL_EVERY, FOLDS, inFinalFold, splitForEvaluation } from './folds.js';

interface Item {
  id: string;
  label: 'a' | 'b';
  x: number;
}

const items: Item[] = Array.from({ length: 300 }, (_, i) => ({
  id: `claim-${i}`,
  label: i % 3 === 0 ? 'a' : 'b',
  x: i % 3 === 0 ? 0.2 + (i % 7) / 100 : 0.6 + (i % 5) / 100,
}));
const accuracy = (test: readonly Item[], predicted: readonly string[]) =>
  test.filter((t, i) => t.label === predicted[i]).length / Math.max(1, test.length);

describe('evaluation split', () => {
  it('sets the final fold aside by the id alone, and deals the rest into stratified folds', () => {
    const split = splitForEvaluation(items, (i) => i.id, { stratum: (i) => i.label });
    expect(split.folds).toHaveLength(FOLDS);
    expect(split.final.every((i) => inFinalFold(i.id))).toBe(true);
    expect(split.final.length).toBeGreaterThan(300 / FINAL_EVERY / 2);
    expect(split.final.length).toBeLessThan((300 / FINAL_EVERY) * 2);
    const seen = [...split.folds.flat(), ...split.final].map((i) => i.id).sort();
    expect(seen).toEqual(items.map((i) => i.id).sort());
    const shares = split.folds.map((f) => f.filter((i) => i.label === 'a').length / f.length);
    for (const share of shares) expect(Math.abs(share - shares[0]!)).toBeLessThan(0.05);
    // The same ids land in the same folds whatever order they come in, and whatever else is in the set.
    const again = splitForEvaluation([...items].reverse().slice(0, 200), (i) => i.id, { stratum: (i) => i.label });
    expect(again.final.map((i) => i.id).sort()).toEqual(
      split.final
        .filter((i) => Number(i.id.split('-')[1]) >= 100)
        .map((i) => i.id)
        .sort(),
    );
  });
});

describe('cross-validation', () => {
  const threshold: Procedure<Item, string> = {
    name: 'threshold',
    fit(train) {
      // The midpoint between the two classes' means, learned from the training items only.
      const mean = (l: string) =>
        train.filter((t) => t.label === l).reduce((s, t) => s + t.x, 0) / train.filter((t) => t.label === l).length;
      const cut = (mean('a') + mean('b')) / 2;
      return (item) => (item.x < cut ? 'a' : 'b');
    },
  };
  const peeking: Procedure<Item, string> = {
    name: 'memoriser',
    fit: (train) => {
      const known = new Map(train.map((t) => [t.id, t.label]));
      return (item) => known.get(item.id) ?? 'b';
    },
  };

  it('scores each fold with what was fitted on the others, so memorising the training items earns nothing', () => {
    const split = splitForEvaluation(items, (i) => i.id, { stratum: (i) => i.label });
    const [fitted, memoriser] = crossValidate(split.folds, [threshold, peeking], accuracy);
    expect(fitted!.mean).toBe(1);
    expect(memoriser!.mean).toBeCloseTo(2 / 3, 1);
    expect(memoriser!.perFold).toHaveLength(FOLDS);
    const final = scoreFinalFold(split, [threshold, peeking], accuracy);
    expect(final[0]!.figure).toBe(1);
    expect(final[1]!.figure).toBeLessThan(0.8);
  });

  it('chooses a candidate by inner folds of the training items, the earlier on a tie', () => {
    expect(chooseByInnerFolds(items, [peeking, threshold], accuracy, (i) => i.id)).toBe(threshold);
    const same = { ...threshold, name: 'same' };
    expect(chooseByInnerFolds(items, [threshold, same], accuracy, (i) => i.id)).toBe(threshold);
  });

  it('summarises folds as mean, sample spread and range', () => {
    const s = summarise('x', [0.4, 0.5, 0.6]);
    expect(s.mean).toBeCloseTo(0.5);
    expect(s.spread).toBeCloseTo(0.1);
    expect([s.min, s.max]).toEqual([0.4, 0.6]);
  });
});
