/**
 * The Tavily request fields that have a meaning here, turned into what the
 * engines and the result filter understand (docs/agent.md, "Tavily fields"), and the timing
 * field every answer carries.
 */
import type { TimeRange } from '../../core/engine.js';
import type { AgentSearchInput } from './schemas.js';

const SHORT_RANGE: Record<string, TimeRange> = { d: 'day', w: 'week', m: 'month', y: 'year' };
const DAY_MS = 86_400_000;

/** The coarsest engine time range that still holds the requested window. */
export function timeRangeOf(
  input: Pick<AgentSearchInput, 'time_range' | 'days' | 'max_hours' | 'start_date'>,
  now = Date.now(),
): TimeRange | undefined {
  if (input.time_range) return SHORT_RANGE[input.time_range] ?? (input.time_range as TimeRange);
  let days: number | undefined = input.days ?? (input.max_hours !== undefined ? input.max_hours / 24 : undefined);
  if (days === undefined && input.start_date) days = (now - Date.parse(`${input.start_date}T00:00:00Z`)) / DAY_MS;
  if (days === undefined) return undefined;
  if (days <= 1) return 'day';
  if (days <= 7) return 'week';
  if (days <= 31) return 'month';
  if (days <= 366) return 'year';
  return undefined;
}

export interface DateWindow {
  from: number | null;
  to: number | null;
}

/** The window results must fall in (by published date), from days / max_hours / start_date / end_date. */
export function dateWindow(
  input: Pick<AgentSearchInput, 'days' | 'max_hours' | 'start_date' | 'end_date'>,
  now = Date.now(),
): DateWindow | null {
  const froms: number[] = [];
  if (input.days !== undefined) froms.push(now - input.days * DAY_MS);
  if (input.max_hours !== undefined) froms.push(now - input.max_hours * 3_600_000);
  if (input.start_date) froms.push(Date.parse(`${input.start_date}T00:00:00Z`));
  const to = input.end_date ? Date.parse(`${input.end_date}T23:59:59.999Z`) : null;
  if (froms.length === 0 && to === null) return null;
  return { from: froms.length ? Math.max(...froms) : null, to };
}

/** Undated results are kept: a missing date is not evidence of being outside the window. */
export function withinWindow(published: string | null, window: DateWindow | null): boolean {
  if (!window || !published) return true;
  const at = Date.parse(published);
  if (Number.isNaN(at)) return true;
  return (window.from === null || at >= window.from) && (window.to === null || at <= window.to);
}

let countryCodes: Map<string, string> | null = null;

/** "united states", "Germany", "de", "GB" → an ISO 3166 alpha-2 code; null when unknown. */
export function countryCode(country: string): string | null {
  const wanted = country.trim().toLowerCase().replace(/[_-]+/g, ' ');
  if (/^[a-z]{2}$/.test(wanted)) return wanted.toUpperCase();
  if (!countryCodes) {
    countryCodes = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        // Deprecated and reserved codes (DD, UK, SU …) map to their successor (DE, GB, RU …).
        const current = new Intl.Locale(`und-${code}`).maximize().region ?? code;
        if (name && name !== code)
          countryCodes.set(name.toLowerCase(), current === 'ZZ' || current === 'US' ? code : current);
      }
    }
  }
  return countryCodes.get(wanted) ?? null;
}

/** The engines' region ("en-US") for a country and language, when the country is known. */
export function regionOf(country: string | undefined, language: string): string | undefined {
  if (!country) return undefined;
  const code = countryCode(country);
  if (!code) return undefined;
  return `${language === 'all' ? 'en' : language.split('-')[0]}-${code}`;
}

/** The "quoted phrases" of a query (exact_match). */
export function quotedPhrases(query: string): string[] {
  return [...query.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.trim().toLowerCase()).filter(Boolean);
}

export function containsPhrases(text: string, phrases: string[]): boolean {
  const haystack = text.toLowerCase().replace(/\s+/g, ' ');
  return phrases.every((phrase) => haystack.includes(phrase.replace(/\s+/g, ' ')));
}

/** Tavily's `response_time`: the seconds since `started` (a performance.now() reading), to the millisecond. */
export function responseTime(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
