/** Publication dates as ISO 8601, from the many formats pages use. */

const MIN_YEAR = 1900;
const MAX_YEAR = 2100;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const EPOCH_SECONDS = /^\d{10}$/;
const EPOCH_MILLISECONDS = /^\d{13}$/;
const YEAR_MONTH_DAY = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/;

function inRange(time: number): boolean {
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** ISO 8601 string, or null when the value is not a recognisable date. Times without a zone are read as UTC. */
export function toIsoDate(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (EPOCH_SECONDS.test(trimmed) || EPOCH_MILLISECONDS.test(trimmed)) {
    const time = Number(trimmed) * (trimmed.length === 10 ? 1000 : 1);
    return inRange(time) ? new Date(time).toISOString() : null;
  }
  // Date.parse guesses wildly at strings without a year ("Version 2" → 2001), so insist on one.
  if (!/\d{4}/.test(trimmed)) return null;
  const normalised = LOCAL_DATE_TIME.test(trimmed) ? `${trimmed.replace(' ', 'T')}Z` : trimmed;
  const parsed = Date.parse(normalised);
  if (inRange(parsed)) return new Date(parsed).toISOString();
  const ymd = YEAR_MONTH_DAY.exec(trimmed);
  if (ymd) {
    const time = Date.UTC(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3]));
    if (inRange(time) && Number(ymd[2]) <= 12 && Number(ymd[3]) <= 31) return new Date(time).toISOString();
  }
  return null;
}
