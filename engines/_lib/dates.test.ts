import { describe, expect, it } from 'vitest';
import { isoDate, isoDateOrUnixSeconds } from './dates.js';

describe('engine dates', () => {
  it('reads the text forms answers use and refuses the rest', () => {
    expect(isoDate('2024-12-31T17:09:03Z')).toBe('2024-12-31T17:09:03.000Z');
    expect(isoDate('Tue, 10 Dec 2024 08:00:00 GMT')).toBe('2024-12-10T08:00:00.000Z');
    expect(isoDate('not a date')).toBeUndefined();
    expect(isoDate('  ')).toBeUndefined();
    expect(isoDate(1_700_000_000)).toBeUndefined();
  });

  it('reads a positive number as Unix seconds only where asked', () => {
    expect(isoDateOrUnixSeconds(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(isoDateOrUnixSeconds(0)).toBeUndefined();
    expect(isoDateOrUnixSeconds('2024-01-02')).toBe('2024-01-02T00:00:00.000Z');
  });
});
