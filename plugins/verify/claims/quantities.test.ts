import { describe, expect, it } from 'vitest';
import { agree, isYear, quantities } from './quantities.js';

describe('quantities', () => {
  it('reads units, ranges, scales and years', () => {
    expect(quantities('about 97 per cent of scientists')).toMatchObject([
      { low: 97, high: 97, unit: 'percent', approximate: true },
    ]);
    expect(quantities('97% agree')).toMatchObject([{ low: 97, unit: 'percent' }]);
    expect(quantities('a rise of 0.3 to 0.6 °C')).toMatchObject([{ low: 0.3, high: 0.6, unit: 'celsius' }]);
    expect(quantities('$2 billion in damage')).toMatchObject([{ low: 2e9, unit: 'money' }]);
    expect(quantities('between 0.23F (0.13C) and 0.34F').map((q) => q.unit)).toEqual([
      'fahrenheit',
      'celsius',
      'fahrenheit',
    ]);
    const years = quantities('between 1998 and 2012');
    expect(years.every(isYear)).toBe(true);
    expect(years.map((q) => q.low)).toEqual([1998, 2012]);
    expect(
      quantities('It ended in 2013.')
        .filter(isYear)
        .map((q) => q.low),
    ).toEqual([2013]);
  });

  it('does not read the digits of names and ordinals as figures', () => {
    expect(quantities('CO2 and H2O in the 21st century')).toEqual([]);
  });

  it('agrees on overlapping ranges and near values, across °F and °C differences', () => {
    const [range] = quantities('0.3 to 0.6 °C');
    const [inside] = quantities('0.5 °C');
    const [outside] = quantities('1.5 °C');
    expect(agree(range!, inside!)).toBe(true);
    expect(agree(range!, outside!)).toBe(false);
    expect(agree(quantities('330 metres')[0]!, quantities('500 metres')[0]!)).toBe(false);
    expect(agree(quantities('about 330 metres')[0]!, quantities('300 metres')[0]!)).toBe(true);
    expect(agree(quantities('0.9 F')[0]!, quantities('0.5 C')[0]!)).toBe(true);
  });
});
