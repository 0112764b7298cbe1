/**
 * The offline default's claim-level verdict (docs/verify.md, "Offline
 * verdict"): when no model judged the evidence, one coverage score of the
 * claim (coverage-scores.ts) and two thresholds decide how far the pages bear
 * it out — at least `high`: true; at least `low`: partially_true; below:
 * unverifiable (no page states enough of the claim to bear on it). A
 * contradiction gate may then turn a claim the pages bear on into `false` or
 * `misleading`:
 *
 *   none                 never (the plain rule);
 *   stance_rules         the fact rules' false / misleading (aggregate.ts) stand;
 *   stance_rules_always  the same, also below `low` (the default before issue 47's second round);
 *   best_line_*          the stance rules read the whole claim against its best line (line-conflict.ts) and find
 *                        a disagreement of that kind (any: every kind).
 *
 * `gateFrom` says from which support level up the gate applies: a claim the
 * pages bear on (partially_supported) or only one they state (supported).
 *
 * Score, thresholds and gate are chosen by cross-validation on WiCE and
 * Climate-FEVER and fitted on the whole development sets by
 * bench/verify/fit-offline-verdict.ts, into data/offline-verdict.json; the
 * figures are in docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CODE_ROOT } from '../../../core/paths.js';
import type { Verdict, VerdictOutcome } from './aggregate.js';
import { COVERAGE_SCORES, type CoverageScore } from './coverage-scores.js';
import type { ConflictKind } from './line-conflict.js';

export const OFFLINE_VERDICT_FILE = join(CODE_ROOT, 'plugins', 'verify', 'claims', 'data', 'offline-verdict.json');

export const CONTRADICTION_GATES = [
  'none',
  'stance_rules',
  'stance_rules_always',
  'best_line_any',
  'best_line_negation',
  'best_line_figure',
  'best_line_direction',
] as const;
export type ContradictionGate = (typeof CONTRADICTION_GATES)[number];

export const GATE_LEVELS = ['partially_supported', 'supported'] as const;
export type GateFrom = (typeof GATE_LEVELS)[number];

const RuleSchema = z.object({
  score: z.enum(COVERAGE_SCORES),
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
  gate: z.enum(CONTRADICTION_GATES),
  gateFrom: z.enum(GATE_LEVELS),
});
export type OfflineVerdictRule = z.infer<typeof RuleSchema>;

export const OFFLINE_VERDICT: OfflineVerdictRule = RuleSchema.refine(
  (r) => r.low <= r.high,
  'low must not exceed high',
).parse(JSON.parse(readFileSync(OFFLINE_VERDICT_FILE, 'utf8')));

export type SupportLevel = 'supported' | 'partially_supported' | 'not_supported';

export function supportLevel(value: number, rule: Pick<OfflineVerdictRule, 'low' | 'high'>): SupportLevel {
  return value >= rule.high ? 'supported' : value >= rule.low ? 'partially_supported' : 'not_supported';
}

const VERDICT_OF: Record<SupportLevel, Verdict> = {
  supported: 'true',
  partially_supported: 'partially_true',
  not_supported: 'unverifiable',
};

/** What the offline verdict decides from, besides the fact rules' outcome. */
export interface OfflineEvidence {
  scores: Record<CoverageScore, number>;
  /** How the claim's best line disagrees with it (line-conflict.ts). */
  conflicts: readonly ConflictKind[];
}

/** Whether the stance rules' verdict says evidence contradicts the claim. */
export function contradicted(rules: VerdictOutcome): boolean {
  return rules.verdict === 'false' || rules.verdict === 'misleading';
}

const GATE_KINDS: Partial<Record<ContradictionGate, readonly ConflictKind[]>> = {
  best_line_any: ['negation', 'figure', 'direction', 'qualifier'],
  best_line_negation: ['negation'],
  best_line_figure: ['figure'],
  best_line_direction: ['direction'],
};

/** The contradicting verdict the gate lets through, or null. */
function gated(rules: VerdictOutcome, evidence: OfflineEvidence, gate: ContradictionGate): Verdict | null {
  if (gate === 'stance_rules' || gate === 'stance_rules_always') return contradicted(rules) ? rules.verdict : null;
  const kinds = evidence.conflicts.filter((k) => GATE_KINDS[gate]?.includes(k));
  if (kinds.length === 0) return null;
  // A line that states the claim and adds what turns it ("… but …") makes it misleading; any other disagreement false.
  return kinds.every((k) => k === 'qualifier') ? 'misleading' : 'false';
}

/** The verdict the offline default answers for a claim; the facts' own statuses are the fact rules'. */
export function offlineVerdict(
  rules: VerdictOutcome,
  evidence: OfflineEvidence,
  rule: OfflineVerdictRule = OFFLINE_VERDICT,
): VerdictOutcome {
  const value = evidence.scores[rule.score];
  const level = supportLevel(value, rule);
  if (rule.gate === 'stance_rules_always' && contradicted(rules)) return rules;
  const applies = level === 'supported' || (level === 'partially_supported' && rule.gateFrom === level);
  const against = applies ? gated(rules, evidence, rule.gate) : null;
  if (against === rules.verdict && contradicted(rules)) return rules;
  return { ...rules, verdict: against ?? VERDICT_OF[level], strength: value };
}
