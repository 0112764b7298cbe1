/**
 * Rating sets loaded from files: the bundled Lin et al. (2023) pc1 and any
 * files the installation supplies. Each figure keeps the set it came from,
 * so an answer can say where every value comes from.
 */
import { readFileSync, statSync } from 'node:fs';
import { AppError } from '../../../core/errors.js';
import { bareHost, startsWithWww } from '../../../services/web-search/hosts.js';
import { biasFromBaly, factualFromBaly, type BiasRating, type FactualReporting } from './labels.js';

export interface RatingSet {
  /** Short name used in notes. */
  name: string;
  /** Where the figures come from (citation, and the file for supplied sets). */
  citation: string;
  /** ISO 8601 date of the data. */
  date: string;
}

export interface DomainRating {
  pc1?: { value: number; from: RatingSet };
  factual?: { value: Exclude<FactualReporting, 'unknown'>; from: RatingSet };
  bias?: { value: Exclude<BiasRating, 'unknown'>; from: RatingSet };
}

export const LIN_2023: Omit<RatingSet, 'date'> = {
  name: 'Lin et al. 2023 domain quality (pc1)',
  citation:
    'Lin et al. (2023), High level of correspondence across different news domain quality rating sets, PNAS ' +
    'Nexus 2(9), pgad286',
};
/** PNAS Nexus 2(9): the September 2023 issue that published the ratings. */
export const LIN_2023_DATE = '2023-09-01T00:00:00.000Z';

const BALY = 'Media Bias/Fact Check labels as collected by Baly et al. (EMNLP 2018, ACL 2020)';

function splitLine(line: string, separator: string): string[] {
  if (!line.includes('"')) return line.split(separator);
  // Minimal quoted-field support: "a,b" stays one field, "" is a quote.
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') (field += '"'), i++;
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) out.push(field), (field = '');
    else field += char;
  }
  out.push(field);
  return out;
}

/**
 * A rating key: the host as hosts are compared (bareHost), plus the path for sets that rate a section (rfi.fr/en,
 * channel4.com/news).
 */
export function ratingKey(raw: string): string {
  return bareHost(withoutScheme(raw))
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
}

function withoutScheme(raw: string): string {
  return raw.trim().replace(/^https?:\/\//i, '');
}

/**
 * Merges one rating file's rows into `into`, later figures replacing earlier ones field by field. Returns rows read.
 */
export function loadRatingsText(
  text: string,
  set: RatingSet,
  into: Map<string, DomainRating>,
  fileLabel: string,
): number {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) return 0;
  const separator = lines[0]!.includes('\t') ? '\t' : ',';
  const header = splitLine(lines[0]!, separator).map((h) => h.trim().toLowerCase());
  const col = (name: string): number => header.indexOf(name);
  const domainCol = col('domain') !== -1 ? col('domain') : col('source_url_normalized');
  const pc1Col = col('pc1');
  const factCol = col('fact');
  const biasCol = col('bias');
  if (domainCol === -1 || (pc1Col === -1 && factCol === -1 && biasCol === -1)) {
    throw new AppError(
      'INVALID_INPUT',
      `credibility.ratingsFiles: ${fileLabel} has neither the Lin et al. header (domain, pc1) nor the Baly et al. header (source_url_normalized, fact, bias)`,
    );
  }
  let rows = 0;
  const seenHere = new Set<string>();
  for (const line of lines.slice(1)) {
    const cells = splitLine(line, separator);
    const raw = (cells[domainCol] ?? '').trim().toLowerCase();
    const domain = ratingKey(raw);
    if (!domain) continue;
    // A set listing both www.x and x: the row for x itself wins, whatever the order.
    const viaWww = startsWithWww(withoutScheme(raw));
    if (viaWww && seenHere.has(domain)) continue;
    seenHere.add(domain);
    const rating: DomainRating = { ...into.get(domain) };
    const pc1 = pc1Col === -1 ? NaN : Number(cells[pc1Col]);
    if (Number.isFinite(pc1) && pc1 >= 0 && pc1 <= 1) rating.pc1 = { value: pc1, from: set };
    const factual = factCol !== -1 ? factualFromBaly(cells[factCol] ?? '') : null;
    if (factual && factual !== 'unknown') rating.factual = { value: factual, from: set };
    const bias = biasCol !== -1 ? biasFromBaly(cells[biasCol] ?? '') : null;
    if (bias && bias !== 'unknown') rating.bias = { value: bias, from: set };
    into.set(domain, rating);
    rows++;
  }
  return rows;
}

/** A supplied file: its set is named by its format, dated by config or by the file's modification time. */
export function loadRatingsFile(path: string, date: string | undefined, into: Map<string, DomainRating>): number {
  let text: string;
  let mtime: Date;
  try {
    text = readFileSync(path, 'utf8');
    mtime = statSync(path).mtime;
  } catch (error) {
    throw new AppError('INVALID_INPUT', `credibility.ratingsFiles: cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n')).toLowerCase();
  const isBaly = firstLine.includes('source_url_normalized');
  const set: RatingSet = {
    name: isBaly ? 'MBFC labels (Baly et al.)' : firstLine.includes('pc1') ? LIN_2023.name : 'supplied ratings',
    citation: `${isBaly ? BALY : LIN_2023.citation}; file ${path}`,
    date: date ? new Date(date).toISOString() : mtime.toISOString(),
  };
  return loadRatingsText(text, set, into, path);
}
