/** The published-date window of neural search. Pages without a date are left out when a window is set. */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export interface DateWindow {
  start?: string;
  end?: string;
}

export function windowBounds(window: DateWindow): { from: number; to: number } | null {
  if (!window.start && !window.end) return null;
  const from = window.start ? Date.parse(window.start) : Number.NEGATIVE_INFINITY;
  // An end given as a day includes that whole day.
  const to = window.end
    ? Date.parse(window.end) + (DATE_ONLY.test(window.end) ? DAY_MS - 1 : 0)
    : Number.POSITIVE_INFINITY;
  return { from, to };
}

export function withinWindow(
  publishedDate: string | null | undefined,
  bounds: { from: number; to: number } | null,
): boolean {
  if (!bounds) return true;
  if (!publishedDate) return false;
  const at = Date.parse(publishedDate);
  return Number.isFinite(at) && at >= bounds.from && at <= bounds.to;
}

/** The day part of an ISO date for index filters (which compare dates as sortable strings). */
export function isoDay(value: number): string | undefined {
  return Number.isFinite(value) ? new Date(value).toISOString().slice(0, 10) : undefined;
}
