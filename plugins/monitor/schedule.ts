/**
 * When a monitor's next check runs and under which job id: pure functions
 * of the durable record, so every instance computes the same answer and a
 * restart neither skips nor bunches checks.
 *
 * - The next scheduled check is the job `check_<monitor>_<seq>`. `seq` grows
 *   by one when a check commits, when the monitor is resumed, and when a
 *   scheduled job ended without committing (recovery), so each state of the
 *   monitor has one job id: submitting it from several instances, or again
 *   after a restart, adds nothing.
 * - It is due `check_interval_minutes` after `last_checked` (the first one at
 *   creation, spread over at most 10 s), moved by a jitter drawn from the
 *   monitor id and seq (the same everywhere): up to ± half of `jitterShare`
 *   of the interval, at most ±30 s.
 *   A monitor overdue at start runs soon (within its jitter), once.
 * - A manual check is `check_<monitor>_m<seq>`: two requests for one state
 *   are one job.
 */
import { createHash } from 'node:crypto';

export const CHECK_JOB_KIND = 'monitor.check';
const MAX_JITTER_MS = 60_000;
/** First checks of monitors created together are spread over at most this. */
const MAX_FIRST_SPREAD_MS = 10_000;

export interface ScheduleState {
  id: string;
  seq: number;
  check_interval_minutes: number;
  created_at: string;
  last_checked: string | null;
}

export interface ScheduleSettings {
  /** One "minute" of check_interval_minutes in ms (60 000 except in tests). */
  minuteMs: number;
  jitterShare: number;
}

/** What a check job carries. */
export interface CheckJobInput {
  monitorId: string;
  seq: number;
  manual: boolean;
  /** When the scheduled check was due (epoch ms); null for a manual one. */
  scheduledFor: number | null;
}

export function scheduledJobId(monitorId: string, seq: number): string {
  return `check_${monitorId}_${seq}`;
}

export function manualJobId(monitorId: string, seq: number): string {
  return `check_${monitorId}_m${seq}`;
}

export function intervalMs(state: Pick<ScheduleState, 'check_interval_minutes'>, settings: ScheduleSettings): number {
  return state.check_interval_minutes * settings.minuteMs;
}

/** A fraction in [0, 1) from the monitor and seq: the same on every instance. */
export function jitterFraction(monitorId: string, seq: number): number {
  return createHash('sha256').update(`${monitorId}:${seq}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** When the check of this state is due (epoch ms), jitter included. */
export function nextRunAt(state: ScheduleState, settings: ScheduleSettings, now: number): number {
  const interval = intervalMs(state, settings);
  const spread = Math.min(interval * settings.jitterShare, MAX_JITTER_MS);
  const fraction = jitterFraction(state.id, state.seq);
  if (state.last_checked === null) {
    // The first check (the baseline) runs soon after creation; monitors created together are spread over `spread`.
    return Math.max(Date.parse(state.created_at), now) + fraction * Math.min(spread, MAX_FIRST_SPREAD_MS);
  }
  const due = Date.parse(state.last_checked) + interval + (fraction - 0.5) * spread;
  // Overdue (the service was down): soon, once, spread like first checks so a backlog does not arrive at once.
  return due >= now ? due : now + fraction * spread;
}
