/**
 * The offline default's claim-level verdict (docs/verify.md, "Offline
 * verdict"): when no model judged the evidence, one coverage score of the
 * claim (coverage-scores.ts) and two thresholds decide how far the pages bear
 * it out — at least `high`: true; at least `low`: partially_true; below:
 * unverifiable (the pages do not state enough of the claim to bear on it).
 * Contradiction is still the stance rules' (aggregate.ts): their false and
 * misleading stand. Which score and which thresholds were chosen by
 * cross-validation on WiCE and fitted on the whole development set by
 * bench/verify/fit-offline-verdict.ts, into data/offline-verdict.json.
 * Cross-validated, it beat the hand-set grading of aggregate.ts and the
 * plain word-overlap rule on claims it was not fitted on (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CODE_ROOT } from '../../../core/paths.js';
import type { Verdict, VerdictOutcome } from './aggregate.js';
import { COVERAGE_SCORES, type CoverageScore } from './coverage-scores.js';

export const OFFLINE_VERDICT_FILE = join(CODE_ROOT, 'plugins', 'verify', 'claims', 'data', 'offline-verdict.json');

const RuleSchema = z.object({
  score: z.enum(COVERAGE_SCORES),
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
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

/** Whether the stance rules' verdict stands: evidence contradicts the claim. */
export function contradicted(rules: VerdictOutcome): boolean {
  return rules.verdict === 'false' || rules.verdict === 'misleading';
}

/** The rules' outcome with the claim-level verdict of the coverage score; the facts' own statuses are kept. */
export function offlineVerdict(
  rules: VerdictOutcome,
  scores: Record<CoverageScore, number>,
  rule: OfflineVerdictRule = OFFLINE_VERDICT,
): VerdictOutcome {
  if (contradicted(rules)) return rules;
  const value = scores[rule.score];
  return { ...rules, verdict: VERDICT_OF[supportLevel(value, rule)], strength: value };
}
