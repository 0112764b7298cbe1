import { describe, expect, it } from 'vitest';
import { jitterFraction, manualJobId, nextRunAt, scheduledJobId, type ScheduleState } from './schedule.js';

const settings = { minuteMs: 60_000, jitterShare: 0.1 };
const created = '2026-01-01T00:00:00.000Z';
const base: ScheduleState = {
  id: 'mon_0123456789abcdef01234567',
  seq: 3,
  check_interval_minutes: 60,
  created_at: created,
  last_checked: '2026-01-01T10:00:00.000Z',
};
const at = (iso: string) => Date.parse(iso);

describe('monitor schedule', () => {
  it('names one job per monitor state, scheduled and manual apart', () => {
    expect(scheduledJobId(base.id, 3)).toBe('check_mon_0123456789abcdef01234567_3');
    expect(manualJobId(base.id, 3)).toBe('check_mon_0123456789abcdef01234567_m3');
  });

  it('is due an interval after last_checked, within ± half the jitter share, the same on every instance', () => {
    const now = at('2026-01-01T10:30:00.000Z');
    const runAt = nextRunAt(base, settings, now);
    const due = at('2026-01-01T11:00:00.000Z');
    expect(Math.abs(runAt - due)).toBeLessThanOrEqual(30_000);
    expect(nextRunAt(base, settings, now + 1000)).toBe(runAt);
    // Another state of the monitor draws another jitter.
    expect(jitterFraction(base.id, 4)).not.toBe(jitterFraction(base.id, 3));
  });

  it('keeps the jitter within 10% of short intervals', () => {
    const short = { ...base, check_interval_minutes: 5 };
    const fractions = Array.from(
      { length: 200 },
      (_, seq) => nextRunAt({ ...short, seq }, settings, 0) - at('2026-01-01T10:05:00.000Z'),
    );
    expect(Math.max(...fractions.map(Math.abs))).toBeLessThanOrEqual(15_000);
    // Spread over the whole range, not bunched.
    expect(Math.max(...fractions) - Math.min(...fractions)).toBeGreaterThan(25_000);
  });

  it('runs a monitor overdue at start soon, once, spread within its jitter', () => {
    const now = at('2026-01-03T00:00:00.000Z');
    const runAt = nextRunAt(base, settings, now);
    expect(runAt).toBeGreaterThanOrEqual(now);
    expect(runAt - now).toBeLessThanOrEqual(60_000);
  });

  it('runs the first check soon after creation, spread over at most 10 s', () => {
    const fresh = { ...base, last_checked: null, seq: 0 };
    const spread = Array.from(
      { length: 100 },
      (_, i) => nextRunAt({ ...fresh, id: `mon_${String(i).padStart(24, '0')}` }, settings, at(created)) - at(created),
    );
    expect(Math.min(...spread)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...spread)).toBeLessThanOrEqual(10_000);
    expect(Math.max(...spread)).toBeGreaterThan(5000);
  });

  it('scales with the test-only minute', () => {
    const runAt = nextRunAt({ ...base, check_interval_minutes: 5 }, { minuteMs: 100, jitterShare: 0.1 }, 0);
    expect(Math.abs(runAt - (at('2026-01-01T10:00:00.000Z') + 500))).toBeLessThanOrEqual(25);
  });
});
