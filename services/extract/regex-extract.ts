/**
 * Runs user-supplied regular expressions over text blocks (the enhanced
 * search regex strategy). It runs in the extraction worker pool, never on
 * the event loop, and inside a vm context with a time limit: V8 interrupts a
 * runaway regular expression there, so one hostile pattern/page pair costs
 * at most REGEX_TIME_LIMIT_MS of a worker thread and is reported instead of
 * hanging anything. Working per block also bounds merely polynomial patterns.
 */
import vm from 'node:vm';
import { AppError } from '../../core/errors.js';

/** A pattern ready for RegExp: label, source and flags (validated by the caller). */
export interface CompiledPattern {
  label: string;
  source: string;
  flags: string;
}

export const REGEX_TIME_LIMIT_MS = 1000;
export const MAX_MATCHES = 1000;

export interface RegexMatch {
  label: string;
  value: string;
  /** Offsets in the content text (blocks joined by blank lines), in UTF-16 code units. */
  start: number;
  end: number;
}

const MATCHER = `(() => {
  const out = [];
  let offset = 0;
  for (const text of texts) {
    for (const p of patterns) {
      const re = new RegExp(p.source, p.flags);
      for (const m of text.matchAll(re)) {
        if (m[0].length === 0) continue;
        out.push([p.label, m[0], offset + m.index]);
        if (out.length >= limit) return out;
      }
    }
    offset += text.length + 2;
  }
  return out;
})()`;

export function regexExtract(
  texts: string[],
  patterns: CompiledPattern[],
  timeLimitMs = REGEX_TIME_LIMIT_MS,
): RegexMatch[] {
  const context = vm.createContext({ texts, patterns: patterns.map((p) => ({ ...p })), limit: MAX_MATCHES });
  let found: unknown;
  try {
    found = vm.runInContext(MATCHER, context, { timeout: timeLimitMs });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new AppError('TIMEOUT', `regex matching took longer than ${timeLimitMs} ms on this page and was stopped`);
    }
    throw error;
  }
  // Rows come from another realm: copy them into plain values of this one.
  const matches = (found as Array<[string, string, number]>).map(([label, value, start]) => ({
    label,
    value,
    start,
    end: start + value.length,
  }));
  // Matches of one pattern come per block; order them by place, then label.
  return matches.sort((a, b) => a.start - b.start || a.label.localeCompare(b.label));
}
