import { describe, expect, it } from 'vitest';
import { monthOf, monthsFrom, periodOf } from './billing-periods.js';

describe('billing periods', () => {
  it('names the UTC month a time falls in', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(monthOf(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
  });

  it("spans a month from its first millisecond to its last, leap years and December's year end included", () => {
    expect(periodOf('2028-02')).toEqual({
      month: '2028-02',
      startDate: '2028-02-01T00:00:00.000Z',
      endDate: '2028-02-29T23:59:59.999Z',
    });
    expect(periodOf('2026-12').endDate).toBe('2026-12-31T23:59:59.999Z');
  });

  it('lists every month between two, both included, across a year end', () => {
    expect(monthsFrom('2026-11', '2027-02')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(monthsFrom('2026-12', '2026-12')).toEqual(['2026-12']);
    expect(monthsFrom('2027-01', '2026-12')).toEqual(['2026-12']);
  });
});
