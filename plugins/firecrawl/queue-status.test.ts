import { describe, expect, it } from 'vitest';
import { countByStatus, latestWithin, RECENT_SUCCESS_MS } from './queue-status.js';

describe('countByStatus', () => {
  it('counts processing jobs as active and every other unfinished job as waiting', () => {
    expect(countByStatus(['processing', 'queued', 'queued', 'processing', 'queued'])).toEqual({
      active: 2,
      waiting: 3,
    });
    expect(countByStatus([])).toEqual({ active: 0, waiting: 0 });
  });
});

describe('latestWithin', () => {
  const now = new Date('2026-12-03T12:00:00.000Z');
  it('answers the latest time of the window, whichever kind it came from', () => {
    expect(latestWithin(['2026-12-03T09:00:00.000Z', null, '2026-12-03T11:59:00.000Z'], now, RECENT_SUCCESS_MS)).toBe(
      '2026-12-03T11:59:00.000Z',
    );
  });
  it('is null for nothing, or for successes older than the window (Firecrawl: the last 24 hours)', () => {
    expect(latestWithin([null, null], now, RECENT_SUCCESS_MS)).toBeNull();
    expect(latestWithin([], now, RECENT_SUCCESS_MS)).toBeNull();
    expect(latestWithin(['2026-12-02T11:59:59.999Z'], now, RECENT_SUCCESS_MS)).toBeNull();
    expect(latestWithin(['2026-12-02T12:00:00.000Z', '2026-11-30T12:00:00.000Z'], now, RECENT_SUCCESS_MS)).toBe(
      '2026-12-02T12:00:00.000Z',
    );
  });
});
