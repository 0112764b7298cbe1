/**
 * Built-in patterns of the regex strategy, and the checks a custom pattern
 * must pass. Custom patterns are user input run against untrusted pages, so
 * patterns that can backtrack catastrophically are refused up front (a
 * quantified group that itself holds an unbounded quantifier, like (a+)+, or
 * an alternation, like (a|ab)*), and matching runs under a time limit
 * (regex-extract.ts) for whatever slips through.
 */
import { AppError } from '../../../core/errors.js';
import type { CompiledPattern } from '../../../services/extract/regex-extract.js';

const MONTHS =
  'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:obe' +
  'r)?|Nov(?:ember)?|Dec(?:ember)?';

/** Every pattern is linear: no nested or overlapping unbounded repetition. */
export const BUILT_IN_PATTERNS = {
  email: {
    source: String.raw`\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b`,
    flags: 'g',
  },
  /** +CC then 6–14 more digits in groups separated by spaces, dots, dashes or a bracketed area code. */
  phone_international: { source: String.raw`\+[1-9]\d{0,2}(?:[ .-]?\(?\d{1,4}\)?){1,5}[ .-]?\d{2,4}\b`, flags: 'g' },
  /**
   * (212) 555-0123, 212-555-0123, 212.555.0123, optionally with a leading 1; not the tail of an international number.
   */
  phone_us: {
    source: String.raw`(?<![\d+]|\+\d{1,3}[ .-]?)(?:1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}\b`,
    flags: 'g',
  },
  url: { source: String.raw`\bhttps?://[^\s<>"'()\[\]{}]{1,2000}[^\s<>"'()\[\]{}.,;:!?]`, flags: 'g' },
  /** 2023-04-21, 2023-04-21T08:15:00Z, 2023-04-21 08:15. */
  date_iso: {
    source: String.raw`\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b`,
    flags: 'g',
  },
  /** 04/21/2023, 21.04.2023, 4/21/23. */
  date_numeric: {
    source: String.raw`\b(?:0?[1-9]|[12]\d|3[01])[/.](?:0?[1-9]|[12]\d|3[01])[/.](?:\d{4}|\d{2})\b`,
    flags: 'g',
  },
  /** April 21, 2023 · Apr 21st 2023 · 21 April 2023 · Monday, November 18, 2019. */
  date_written: {
    source: String.raw`\b(?:(?:${MONTHS})\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})\.?,? \d{4})\b`,
    flags: 'gi',
  },
  /** $1,299.99 · €49 · £3.5m · 1 200 EUR · 99.90 USD · US$5 billion. */
  currency: {
    source: String.raw`(?:(?:US|A|C|NZ|HK)?[$€£¥₹₩₽]\s?\d{1,3}(?:[,\s.]\d{3}){0,6}(?:[.,]\d{1,2})?(?:\s?(?:k|m|bn|million|billion|trillion)\b)?|\b\d{1,3}(?:[,\s.]\d{3}){0,6}(?:[.,]\d{1,2})?\s?(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR|dollars|euros|pounds)\b)`,
    flags: 'g',
  },
} as const;

export type BuiltInPattern = keyof typeof BUILT_IN_PATTERNS;

/** Names that stand for several patterns. */
export const PATTERN_GROUPS: Record<string, BuiltInPattern[]> = {
  phone: ['phone_international', 'phone_us'],
  date: ['date_iso', 'date_numeric', 'date_written'],
  price: ['currency'],
  all: Object.keys(BUILT_IN_PATTERNS) as BuiltInPattern[],
};

export const PATTERN_NAMES = [...Object.keys(BUILT_IN_PATTERNS), ...Object.keys(PATTERN_GROUPS)];

export type { CompiledPattern };

export const MAX_PATTERN_LENGTH = 500;
const MAX_CUSTOM_PATTERNS = 20;

/**
 * Finds a quantified group whose body can repeat in more than one way: a
 * group followed by *, + or {n,} (or {n,m} with m > 1) that itself contains
 * an unbounded quantifier or an alternation. Returns a description or null.
 */
export function backtrackingRisk(source: string): string | null {
  interface Group {
    unbounded: boolean;
    alternation: boolean;
  }
  const stack: Group[] = [];
  let lastClosed: Group | null = null;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      i++;
      lastClosed = null;
      continue;
    }
    if (char === '[') {
      // Skip the character class (a quantifier inside it is a literal).
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      lastClosed = null;
      continue;
    }
    if (char === '(') {
      stack.push({ unbounded: false, alternation: false });
      lastClosed = null;
      continue;
    }
    if (char === ')') {
      lastClosed = stack.pop() ?? null;
      // What the closed group holds also counts for the group around it.
      if (lastClosed && stack.length > 0) {
        stack.at(-1)!.unbounded ||= lastClosed.unbounded;
      }
      continue;
    }
    if (char === '|') {
      if (stack.length > 0) stack.at(-1)!.alternation = true;
      continue;
    }
    const quantifier = /^(?:[*+]|\{(\d+)(,(\d*))?\})/.exec(source.slice(i));
    if (quantifier) {
      const unbounded =
        quantifier[0] === '*' || quantifier[0] === '+' || (quantifier[2] !== undefined && quantifier[3] === '');
      const repeats = unbounded || (quantifier[3] !== undefined && Number(quantifier[3]) > 1);
      if (lastClosed && repeats && lastClosed.unbounded)
        return `nested quantifier at offset ${i} (a repeated group that itself repeats, like (a+)+)`;
      if (lastClosed && unbounded && lastClosed.alternation)
        return `repeated alternation at offset ${i} (like (a|ab)*; use a character class or bound the repetition)`;
      if (unbounded && stack.length > 0) stack.at(-1)!.unbounded = true;
      if (lastClosed?.unbounded && stack.length > 0) stack.at(-1)!.unbounded = true;
      i += quantifier[0].length - 1;
      lastClosed = null;
      continue;
    }
    if (char !== '?') lastClosed = null;
  }
  return null;
}

export type CustomPatternInput = string | { pattern: string; flags?: string };

/** Compiles the requested patterns; INVALID_INPUT naming the pattern when one is unknown, malformed or risky. */
export function compilePatterns(
  names: string[] | undefined,
  custom: Record<string, CustomPatternInput> | undefined,
): CompiledPattern[] {
  const compiled: CompiledPattern[] = [];
  const wanted = names ?? (custom && Object.keys(custom).length > 0 ? [] : ['all']);
  for (const name of wanted) {
    const group = PATTERN_GROUPS[name] ?? (name in BUILT_IN_PATTERNS ? [name as BuiltInPattern] : null);
    if (!group)
      throw new AppError(
        'INVALID_INPUT',
        `regex_patterns: unknown pattern "${name}"; built-in patterns are ${PATTERN_NAMES.join(', ')}`,
      );
    for (const label of group) {
      if (!compiled.some((c) => c.label === label)) compiled.push({ label, ...BUILT_IN_PATTERNS[label] });
    }
  }
  const entries = Object.entries(custom ?? {});
  if (entries.length > MAX_CUSTOM_PATTERNS)
    throw new AppError('INVALID_INPUT', `custom_patterns: at most ${MAX_CUSTOM_PATTERNS} patterns`);
  for (const [label, value] of entries) {
    const where = `custom_patterns.${label}`;
    const source = typeof value === 'string' ? value : value.pattern;
    const extraFlags = typeof value === 'string' ? '' : (value.flags ?? '');
    if (!/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(label))
      throw new AppError('INVALID_INPUT', `${where}: names are letters, digits, _ and - (at most 64)`);
    if (source.length === 0 || source.length > MAX_PATTERN_LENGTH)
      throw new AppError('INVALID_INPUT', `${where}: a pattern is 1 to ${MAX_PATTERN_LENGTH} characters`);
    if (!/^[imsu]*$/.test(extraFlags)) throw new AppError('INVALID_INPUT', `${where}: flags may only be i, m, s and u`);
    const flags = `g${[...new Set(extraFlags)].join('')}`;
    try {
      new RegExp(source, flags);
    } catch (error) {
      throw new AppError('INVALID_INPUT', `${where}: invalid regular expression: ${(error as Error).message}`);
    }
    const risk = backtrackingRisk(source);
    if (risk)
      throw new AppError('INVALID_INPUT', `${where}: refused, the pattern could backtrack catastrophically: ${risk}`);
    compiled.push({ label, source, flags });
  }
  return compiled;
}
