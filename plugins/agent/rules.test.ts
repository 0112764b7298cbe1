import { describe, expect, it } from 'vitest';
import { autoParameters, queryComplexity } from './complexity.js';
import {
  containsPhrases,
  countryCode,
  dateWindow,
  quotedPhrases,
  regionOf,
  timeRangeOf,
  withinWindow,
} from './tavily-fields.js';

describe('query complexity', () => {
  it('calls short look-ups simple, how-to and longer questions moderate, comparisons and why-questions complex', () => {
    expect(queryComplexity('heat pump')).toBe('simple');
    expect(queryComplexity('what is a heat pump')).toBe('simple');
    expect(queryComplexity('how to install a heat pump')).toBe('moderate');
    expect(queryComplexity('who built the first heat pump system')).toBe('moderate');
    expect(queryComplexity('heat pump vs gas boiler')).toBe('complex');
    expect(queryComplexity('why do heat pumps lose efficiency in cold weather')).toBe('complex');
    expect(queryComplexity('what is a heat pump and how much does it cost')).toBe('complex');
  });
  it('picks news or finance and the advanced depth only where the request left the default', () => {
    expect(autoParameters('latest heat pump news', 'general', 'basic')).toEqual({
      topic: 'news',
      search_depth: 'basic',
    });
    expect(autoParameters('heat pump maker stock price target', 'general', 'basic')).toEqual({
      topic: 'finance',
      search_depth: 'basic',
    });
    expect(autoParameters('heat pump vs gas boiler', 'general', 'basic')).toEqual({
      topic: 'general',
      search_depth: 'advanced',
    });
    expect(autoParameters('latest heat pump vs boiler news', 'finance', 'fast')).toEqual({
      topic: 'finance',
      search_depth: 'fast',
    });
  });
});

describe('Tavily fields', () => {
  const now = Date.parse('2025-06-15T12:00:00Z');
  it('turns time_range, days, max_hours and start_date into the coarsest engine range that holds them', () => {
    expect(timeRangeOf({ time_range: 'w' })).toBe('week');
    expect(timeRangeOf({ time_range: 'month' })).toBe('month');
    expect(timeRangeOf({ days: 1 })).toBe('day');
    expect(timeRangeOf({ days: 3 })).toBe('week');
    expect(timeRangeOf({ max_hours: 48 })).toBe('week');
    expect(timeRangeOf({ days: 400 })).toBeUndefined();
    expect(timeRangeOf({ start_date: '2025-06-01' }, now)).toBe('month');
    expect(timeRangeOf({})).toBeUndefined();
  });
  it('keeps results inside the date window, and undated ones', () => {
    const window = dateWindow({ days: 7, end_date: '2025-06-14' }, now)!;
    expect(withinWindow('2025-06-10T00:00:00Z', window)).toBe(true);
    expect(withinWindow('2025-06-01T00:00:00Z', window)).toBe(false);
    expect(withinWindow('2025-06-15T00:00:00Z', window)).toBe(false);
    expect(withinWindow(null, window)).toBe(true);
    expect(dateWindow({}, now)).toBeNull();
  });
  it('reads countries by name or code', () => {
    expect(countryCode('united states')).toBe('US');
    expect(countryCode('Germany')).toBe('DE');
    expect(countryCode('gb')).toBe('GB');
    expect(countryCode('atlantis')).toBeNull();
    expect(regionOf('united kingdom', 'en')).toBe('en-GB');
    expect(regionOf(undefined, 'en')).toBeUndefined();
  });
  it('finds quoted phrases and checks a text holds them all', () => {
    expect(quotedPhrases('heat pump "salt works" "Peter von Rittinger"')).toEqual([
      'salt works',
      'peter von rittinger',
    ]);
    expect(
      containsPhrases('Built at a salt  works by Peter von Rittinger.', ['salt works', 'peter von rittinger']),
    ).toBe(true);
    expect(containsPhrases('A salt mine.', ['salt works'])).toBe(false);
  });
});
