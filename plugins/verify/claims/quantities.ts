/**
 * Numbers and dates in a sentence, with their units, so a fact's figure can
 * be compared with the evidence's: "97 per cent" matches "97%", "0.3 to
 * 0.6 °C" is a range, "1998" is a year, "2 billion" is 2e9.
 */

export type Unit = 'percent' | 'celsius' | 'fahrenheit' | 'ppm' | 'money' | 'length' | 'mass' | 'duration' | 'count';

export interface Quantity {
  low: number;
  high: number;
  unit: Unit;
  /** "about", "roughly", "nearly": compare more loosely. */
  approximate: boolean;
  /** The text as written. */
  text: string;
}

const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const UNIT_WORDS: Array<[RegExp, Unit]> = [
  [/^(%|percent|per cent|percentage points?)$/i, 'percent'],
  [/^(°\s?c|degrees? c(elsius)?|celsius|c)$/i, 'celsius'],
  [/^(°\s?f|degrees? f(ahrenheit)?|fahrenheit|f)$/i, 'fahrenheit'],
  [/^(ppm|ppmv|parts per million)$/i, 'ppm'],
  [/^(mm|cm|m|km|metres?|meters?|feet|foot|ft|inches|inch|miles?)$/i, 'length'],
  [/^(kg|tons?|tonnes?|gt|mt|gigatons?|gigatonnes?|megatons?|pounds?|lbs?)$/i, 'mass'],
  [/^(years?|decades?|centuries|century|days?|months?|weeks?|hours?)$/i, 'duration'],
];
const WORD_NUMBERS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
  dozen: 12,
  half: 50,
};

// Thousands groups only: "1987, draws" is the year 1987, not a number with a trailing comma.
const NUMBER = String.raw`-?\d+(?:,\d{3})*(?:\.\d+)?`;
const UNIT = String.raw`%|percent|per cent|percentage points?|°\s?[CF]|[CF](?![a-z])|degrees? (?:celsius|fahrenheit|[CF])|degrees?|ppmv?|parts per million|mm|cm|km|metres?|meters?|feet|foot|ft|inches|inch|miles?|kg|tons?|tonnes?|gigatons?|gigatonnes?|megatons?|gt|mt|pounds?|lbs?|years?|decades?|centuries|century|days?|months?|weeks?|hours?`;
const QUANTITY = new RegExp(
  String.raw`(?<approx>\b(?:about|around|roughly|nearly|almost|approximately|some|over|more than|less than|up to)\s+)?(?<money>[$€£])?(?<![\w.])(?<a>${NUMBER})(?:\s*(?:-|–|—|to|and)\s*(?<b>${NUMBER}))?\s*(?<scale>thousand|million|billion|trillion)?\s*(?<unit>${UNIT})?(?![\w]|\.\d)`,
  'gi',
);
const WORD_QUANTITY = new RegExp(
  String.raw`\b(?<word>${Object.keys(WORD_NUMBERS).join('|')})\s+(?<scale>thousand|million|billion|trillion)?\s*(?<unit>${UNIT})?\b`,
  'gi',
);

function unitOf(raw: string | undefined, money: string | undefined): Unit {
  if (money) return 'money';
  if (!raw) return 'count';
  const text = raw.replace(/\s+/g, ' ').trim();
  for (const [pattern, unit] of UNIT_WORDS) if (pattern.test(text)) return unit;
  if (/^degrees?$/i.test(text)) return 'celsius';
  return 'count';
}

function parseNumber(raw: string): number {
  return Number(raw.replace(/,/g, ''));
}

/** Years written alone (1000–2100, no unit) are dates, not quantities. */
export function isYear(q: Quantity): boolean {
  return (
    q.unit === 'count' &&
    q.low === q.high &&
    Number.isInteger(q.low) &&
    q.low >= 1000 &&
    q.low <= 2100 &&
    /^\d{4}s?$/.test(q.text.trim())
  );
}

export function quantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const match of text.matchAll(QUANTITY)) {
    const g = match.groups!;
    const scale = g.scale ? SCALE[g.scale.toLowerCase()]! : 1;
    const a = parseNumber(g.a!) * scale;
    const b = g.b !== undefined ? parseNumber(g.b) * scale : a;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    // "between 1998 and 2012" reads as two years, not a range of counts, when both look like years.
    const unit = unitOf(g.unit, g.money);
    const text = match[0].replace(g.approx ?? '', '');
    if (g.b !== undefined && unit === 'count' && /^\d{4}$/.test(g.a!) && /^\d{4}$/.test(g.b)) {
      out.push(
        { low: a, high: a, unit, approximate: false, text: g.a! },
        { low: b, high: b, unit, approximate: false, text: g.b },
      );
      continue;
    }
    out.push({ low: Math.min(a, b), high: Math.max(a, b), unit, approximate: g.approx !== undefined, text });
  }
  for (const match of text.matchAll(WORD_QUANTITY)) {
    const g = match.groups!;
    const value = WORD_NUMBERS[g.word!.toLowerCase()]! * (g.scale ? SCALE[g.scale.toLowerCase()]! : 1);
    const unit = g.word!.toLowerCase() === 'half' && !g.unit ? 'percent' : unitOf(g.unit, undefined);
    out.push({ low: value, high: value, unit, approximate: false, text: match[0] });
  }
  return out;
}

function toCelsius(q: Quantity): Quantity {
  // A temperature difference in °F is 5/9 of one in °C (the figures compared are changes more often than readings).
  return q.unit === 'fahrenheit' ? { ...q, unit: 'celsius', low: (q.low * 5) / 9, high: (q.high * 5) / 9 } : q;
}

/** Whether two quantities of one kind agree: overlapping ranges, or within 5 % (15 % when either is approximate). */
export function sameKind(a: Quantity, b: Quantity): boolean {
  return toCelsius(a).unit === toCelsius(b).unit;
}

export function agree(a: Quantity, b: Quantity): boolean {
  const x = toCelsius(a);
  const y = toCelsius(b);
  if (x.low <= y.high && y.low <= x.high) return true;
  const tolerance = x.approximate || y.approximate ? 0.15 : 0.05;
  const gap = Math.min(Math.abs(x.low - y.high), Math.abs(y.low - x.high));
  return gap <= tolerance * Math.max(Math.abs(x.high), Math.abs(y.high));
}
