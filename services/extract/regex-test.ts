/**
 * Which of a few short strings (URLs, paths, host names) each user-supplied
 * regular expression matches — the path and domain filters of a crawl. Like
 * regex-extract.ts it runs in the extraction worker pool, inside a vm context
 * with a time limit, so a pattern that backtracks catastrophically costs at
 * most REGEX_TIME_LIMIT_MS of a worker thread and is reported as TIMEOUT.
 */
import vm from 'node:vm';
import { AppError } from '../../core/errors.js';
import { REGEX_TIME_LIMIT_MS } from './regex-extract.js';

/** A pattern for RegExp#test: source and flags (validated by the caller; "g" and "y" are dropped). */
export interface TestPattern {
  source: string;
  flags: string;
}

const TESTER = `(() => patterns.map((p) => {
  const re = new RegExp(p.source, p.flags);
  return texts.map((text) => re.test(text));
}))()`;

/** matches[p][t]: whether pattern p matches somewhere in text t. */
export function regexTest(texts: string[], patterns: TestPattern[], timeLimitMs = REGEX_TIME_LIMIT_MS): boolean[][] {
  if (patterns.length === 0 || texts.length === 0) return patterns.map(() => texts.map(() => false));
  // Stateless matching: without g/y, test() never carries lastIndex from one text to the next.
  const plain = patterns.map((p) => ({ source: p.source, flags: p.flags.replace(/[gy]/g, '') }));
  const context = vm.createContext({ texts: [...texts], patterns: plain });
  let found: unknown;
  try {
    found = vm.runInContext(TESTER, context, { timeout: timeLimitMs });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new AppError('TIMEOUT', `a URL filter pattern took longer than ${timeLimitMs} ms and was stopped`);
    }
    throw error;
  }
  // Arrays from another realm: copy them into plain values of this one.
  return (found as boolean[][]).map((row) => row.map(Boolean));
}
