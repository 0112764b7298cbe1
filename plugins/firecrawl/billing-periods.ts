/**
 * Billing periods as the historical usage routes answer them: one calendar
 * month (UTC) each, named by its "YYYY-MM" key, from its first millisecond to
 * its last (Firecrawl's periods end at the month's last moment).
 */

export interface BillingPeriod {
  /** "2026-12". */
  month: string;
  startDate: string;
  endDate: string;
}

/** The month a time falls in (UTC), as "YYYY-MM". */
export function monthOf(time: Date): string {
  return time.toISOString().slice(0, 7);
}

function firstMomentOf(month: string): Date {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1, 1));
}

export function periodOf(month: string): BillingPeriod {
  const start = firstMomentOf(month);
  const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return { month, startDate: start.toISOString(), endDate: new Date(next.getTime() - 1).toISOString() };
}

/** Every month from `first` to `last`, both included, oldest first; just `last` when `first` is later. */
export function monthsFrom(first: string, last: string): string[] {
  const months: string[] = [];
  const at = firstMomentOf(first < last ? first : last);
  for (; monthOf(at) <= last; at.setUTCMonth(at.getUTCMonth() + 1)) months.push(monthOf(at));
  return months;
}
