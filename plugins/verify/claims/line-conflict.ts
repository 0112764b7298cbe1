/**
 * Whether the claim's best line (word-overlap.ts) contradicts it, and how: the
 * stance rules (stance-rules.ts) read the whole claim against that one line,
 * by words alone (no embedder: what the offline verdict decides from must not
 * depend on whether a model is installed). The offline verdict lets a chosen
 * kind turn a supported claim into `false` or `misleading` (offline-verdict.ts).
 */
import { analyse, termCoverage } from './analysis.js';
import { cleanClaim } from './facts.js';
import {
  CALLS_FALSE,
  EVIDENCE_NEGATED,
  FACT_NEGATED,
  FIGURE_DIFFERS,
  judgeByRules,
  OPPOSITE_WORDS,
  OTHER_DIRECTION,
  QUALIFIES,
  YEAR_DIFFERS,
} from './stance-rules.js';

export const CONFLICT_KINDS = ['negation', 'figure', 'direction', 'qualifier'] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

function kindOf(reason: string): ConflictKind | null {
  if (reason === FACT_NEGATED || reason === EVIDENCE_NEGATED || reason === CALLS_FALSE) return 'negation';
  if (reason === FIGURE_DIFFERS || reason === YEAR_DIFFERS) return 'figure';
  if (reason === OTHER_DIRECTION || reason.startsWith(OPPOSITE_WORDS)) return 'direction';
  if (reason === QUALIFIES) return 'qualifier';
  return null;
}

/** The kinds of disagreement the stance rules find between the claim and `line` (none when it is unrelated). */
export function lineConflicts(claim: string, line: string | null): ConflictKind[] {
  if (!line) return [];
  const fact = analyse(cleanClaim(claim));
  const sentence = analyse(line);
  const coverage = termCoverage(fact, sentence);
  const judged = judgeByRules({ fact, sentence, coverage, relevance: coverage });
  if (judged.stance === 'unrelated') return [];
  if (judged.stance === 'supports') return judged.reasons.includes(QUALIFIES) ? ['qualifier'] : [];
  const kinds = new Set(judged.reasons.map(kindOf).filter((k): k is ConflictKind => k !== null));
  return CONFLICT_KINDS.filter((k) => kinds.has(k));
}
