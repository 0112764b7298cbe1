/**
 * The fitting procedures the verify bench cross-validates (docs/benchmarks.md,
 * "Evaluation protocol"), each choosing everything from its training rows only.
 *
 * Per set, the baselines:
 *   majority             the commonest label of the training rows;
 *   word overlap         WiCE: two thresholds on the rule's score of the page's lines (≥ high supported, ≥ low
 *                        partially, else not); Climate-FEVER: one (≥ t true, else unverifiable), fitted for macro-F1;
 *   hand-set rules       WiCE: the fact-level rules of aggregate.ts as they are (constants set on WiCE's even
 *                        positions, so flattered).
 *
 * Offline verdicts (offline-verdict.ts), fitted on WiCE's training folds and scored on both sets' held-out folds,
 * since one default ships for both: a coverage score, a contradiction gate and two thresholds. Fixed-gate candidates,
 * the learned score of the round before, and the gate chosen in the training folds (fitChosenGate).
 */
import type { VerdictOutcome } from '../../plugins/verify/claims/aggregate.js';
import type { CoverageScore } from '../../plugins/verify/claims/coverage-scores.js';
import { COVERAGE_SCORES } from '../../plugins/verify/claims/coverage-scores.js';
import {
  CONTRADICTION_GATES,
  offlineVerdict,
  GATE_LEVELS,
  type ContradictionGate,
  type GateFrom,
  type OfflineVerdictRule,
} from '../../plugins/verify/claims/offline-verdict.js';
import { dealIntoFolds } from '../protocol/folds.js';
import type { Metric, Procedure } from '../protocol/cross-validate.js';
import { LABELS3, type Label3 } from './dataset.js';
import { macroF1 } from './metrics.js';
import { toLabel3 } from './report.js';
import { WICE_LABELS, type WiceLabel } from './wice-dataset.js';
import { byOverlap, fitOverlap, toWiceLabel } from './wice-report.js';
import type { AssessedRow, ClimateRow, WiceRow } from './wice-rows.js';

export type WiceProcedure = Procedure<WiceRow, WiceLabel>;
export type ClimateProcedure = Procedure<ClimateRow, Label3>;

export const wiceMacroF1: Metric<WiceRow, WiceLabel> = (rows, predicted) =>
  macroF1(
    rows.map((r, i) => ({ gold: r.claim.gold, predicted: predicted[i]! })),
    WICE_LABELS,
  );

/** Three-class macro-F1 of Climate-FEVER, DISPUTED claims left out (they have no label on the scale). */
export const climateMacroF1: Metric<ClimateRow, Label3> = (rows, predicted) =>
  macroF1(
    rows.flatMap((r, i) => (r.claim.gold3 ? [{ gold: r.claim.gold3, predicted: predicted[i]! }] : [])),
    LABELS3,
  );

export const idOfRow = (row: AssessedRow<{ id: string }>): string => row.claim.id;
export const goldOfWice = (row: WiceRow): string => row.claim.gold;
export const goldOfClimate = (row: ClimateRow): string => row.claim.gold;

export const majority: WiceProcedure = {
  name: 'majority label',
  fit(train) {
    const count = (l: WiceLabel) => train.filter((r) => r.claim.gold === l).length;
    const label = WICE_LABELS.reduce((a, b) => (count(b) > count(a) ? b : a));
    return () => label;
  },
};

export const wordOverlap: WiceProcedure = {
  name: 'baseline: word overlap on the page lines, 2 thresholds',
  fit(train) {
    const t = fitOverlap(train.map((r) => ({ gold: r.claim.gold, score: r.overlap })));
    return (r) => byOverlap(r.overlap, t);
  },
};

export const handSetRules: WiceProcedure = { name: 'hand-set rules (as shipped before)', fit: () => (r) => r.byRules };

export const climateMajority: ClimateProcedure = {
  name: 'majority label',
  fit(train) {
    const count = (l: Label3) => train.filter((r) => r.claim.gold3 === l).length;
    const label = LABELS3.reduce((a, b) => (count(b) > count(a) ? b : a));
    return () => label;
  },
};

export const climateOverlap: ClimateProcedure = {
  name: 'baseline: word overlap, 1 threshold fitted on Climate-FEVER',
  fit(train) {
    let best = { t: 0, f1: -1 };
    for (let i = 0; i <= 20; i++) {
      const t = i / 20;
      const f1 = climateMacroF1(
        train,
        train.map((r) => (r.evidence.scores.line_overlap >= t ? 'true' : 'unverifiable')),
      );
      if (f1 > best.f1) best = { t, f1 };
    }
    return (r) => (r.evidence.scores.line_overlap >= best.t ? 'true' : 'unverifiable');
  },
};

/** The fact rules' outcome as the offline verdict reads it (only its verdict matters there). */
const rulesOf = (row: AssessedRow<unknown>): VerdictOutcome => ({ verdict: row.rules, facts: [], strength: 0 });

/** What checkClaim answers for a row under `rule`, on WiCE's scale and on Climate-FEVER's. */
export const decideWice = (row: WiceRow, rule: OfflineVerdictRule): WiceLabel =>
  toWiceLabel(offlineVerdict(rulesOf(row), row.evidence, rule).verdict);
export const decideClimate = (row: ClimateRow, rule: OfflineVerdictRule): Label3 =>
  toLabel3(offlineVerdict(rulesOf(row), row.evidence, rule).verdict);

/** Two thresholds on `score`, with `gate`, fitted on WiCE rows for macro-F1 (a 0.05 grid; ties to the first). */
export function fitRule(
  train: readonly WiceRow[],
  score: CoverageScore,
  gate: ContradictionGate,
  gateFrom: GateFrom = 'partially_supported',
): OfflineVerdictRule {
  let best = { rule: { score, gate, gateFrom, low: 0, high: 0 }, f1: -1 };
  for (let low = 0; low <= 20; low++)
    for (let high = low; high <= 20; high++) {
      const rule = { score, gate, gateFrom, low: low / 20, high: high / 20 };
      const f1 = wiceMacroF1(
        train,
        train.map((r) => decideWice(r, rule)),
      );
      if (f1 > best.f1) best = { rule, f1 };
    }
  return best.rule;
}

/** Inner folds' mean WiCE macro-F1 of a rule refitted on each inner training part. */
function innerWice(train: readonly WiceRow[], fit: (part: readonly WiceRow[]) => OfflineVerdictRule): number {
  const inner = dealIntoFolds(train, idOfRow, 4, goldOfWice);
  const figures = inner.map((test, f) => {
    const rule = fit(inner.filter((_, g) => g !== f).flat());
    return wiceMacroF1(
      test,
      test.map((r) => decideWice(r, rule)),
    );
  });
  return figures.reduce((a, b) => a + b, 0) / figures.length;
}

/** An offline verdict's fitting procedure: a rule from WiCE's and Climate-FEVER's training rows. */
export interface RuleProcedure {
  name: string;
  fit(wice: readonly WiceRow[], climate: readonly ClimateRow[]): OfflineVerdictRule;
}

export const fixedGate = (
  score: CoverageScore,
  gate: ContradictionGate,
  gateFrom: GateFrom = 'partially_supported',
  name?: string,
): RuleProcedure => ({
  name: name ?? `${score}, gate ${gate}${gateFrom === 'supported' ? ' on supported only' : ''}, 2 thresholds`,
  fit: (wice) => fitRule(wice, score, gate, gateFrom),
});

/** Every gate, from each level; the plain rule (no gate) first. */
type GateChoice = { gate: ContradictionGate; gateFrom: GateFrom };
const GATES: GateChoice[] = CONTRADICTION_GATES.flatMap((gate): GateChoice[] =>
  gate === 'none'
    ? [{ gate, gateFrom: 'partially_supported' }]
    : gate === 'stance_rules_always'
      ? []
      : GATE_LEVELS.map((gateFrom) => ({ gate, gateFrom })),
);

/** The two-line rule as an offline verdict: word overlap on the page lines, no gate. */
export const THE_RULE = fixedGate(
  'line_overlap',
  'none',
  'partially_supported',
  'the rule: line_overlap, 2 thresholds, no gate',
);

/**
 * The gate chosen in the training folds: among the gates whose WiCE figure (inner folds) is not below the plain
 * rule's, the one that does best on Climate-FEVER's training rows (thresholds from WiCE); ties to the plain rule.
 */
export function fitChosenGate(wice: readonly WiceRow[], climate: readonly ClimateRow[]): OfflineVerdictRule {
  const floor = innerWice(wice, (part) => fitRule(part, 'line_overlap', 'none'));
  let best = { rule: fitRule(wice, 'line_overlap', 'none'), f1: -1 };
  for (const { gate, gateFrom } of GATES) {
    const fit = (part: readonly WiceRow[]) => fitRule(part, 'line_overlap', gate, gateFrom);
    if (gate !== 'none' && innerWice(wice, fit) < floor - 1e-9) continue;
    const rule = fit(wice);
    const f1 = climateMacroF1(
      climate,
      climate.map((r) => decideClimate(r, rule)),
    );
    if (f1 > best.f1 + 1e-9) best = { rule, f1 };
  }
  return best.rule;
}

export const chosenGate: RuleProcedure = {
  name: 'line_overlap, gate chosen in training folds (WiCE not below the rule, best Climate-FEVER)',
  fit: fitChosenGate,
};

/** The coverage score the inner WiCE folds prefer (ties to the first listed), the stance rules standing. */
export const learnedScore: RuleProcedure = {
  name: 'learned: coverage score chosen by inner folds, stance rules standing',
  fit(wice) {
    let best = { score: COVERAGE_SCORES[0] as CoverageScore, f1: -1 };
    for (const score of COVERAGE_SCORES) {
      const f1 = innerWice(wice, (part) => fitRule(part, score, 'stance_rules_always'));
      if (f1 > best.f1 + 1e-9) best = { score, f1 };
    }
    return fitRule(wice, best.score, 'stance_rules_always');
  },
};

/** Every offline-verdict candidate the bench reports, the rule first and the chosen-gate procedure second. */
export const RULE_PROCEDURES: RuleProcedure[] = [
  THE_RULE,
  chosenGate,
  fixedGate(
    'best_sentence_overlap',
    'stance_rules_always',
    'partially_supported',
    'the default before: best_sentence_overlap, stance rules standing',
  ),
  fixedGate('line_overlap', 'stance_rules_always'),
  ...GATES.filter((g) => g.gate !== 'none').map((g) => fixedGate('line_overlap', g.gate, g.gateFrom)),
  learnedScore,
];
