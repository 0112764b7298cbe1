/**
 * Dates as engines' answers give them, made ISO 8601 (what EngineResult.publishedDate holds).
 */

/** A date given as text (ISO 8601, RFC 2822, …); undefined for anything else or a date that does not parse. */
export function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The same, and a positive number read as Unix seconds (as video sites give upload times). */
export function isoDateOrUnixSeconds(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value * 1000).toISOString();
  return isoDate(value);
}
