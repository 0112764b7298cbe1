/**
 * The fitting procedures the verify bench cross-validates on WiCE rows
 * (wice-rows.ts), each choosing everything from its training rows only:
 *
 *   majority             the commonest label of the training rows;
 *   word overlap         the baseline: two thresholds on the overlap score (≥ high supported,
 *                        ≥ low partially, else not), fitted for macro-F1;
 *   hand-set rules       the fact-level rules of aggregate.ts as they are (their constants were
 *                        set on WiCE's even positions, so their figure is flattered);
 *   one coverage score   two thresholds on that score, contradiction (the stance rules' false or
 *                        misleading) answering not supported — what the product does;
 *   offline verdict      the shipped procedure: which coverage score, chosen by inner folds of
 *                        the training rows, then its two thresholds (fitOfflineVerdict).
 */
import { COVERAGE_SCORES, type CoverageScore } from '../../plugins/verify/claims/coverage-scores.js';
import { supportLevel, type OfflineVerdictRule } from '../../plugins/verify/claims/offline-verdict.js';
import { chooseByInnerFolds, type Metric, type Procedure } from '../protocol/cross-validate.js';
import { macroF1 } from './metrics.js';
import { WICE_LABELS, type WiceLabel } from './wice-dataset.js';
import { byOverlap, fitOverlap } from './wice-report.js';
import type { WiceRow } from './wice-rows.js';

export type WiceProcedure = Procedure<WiceRow, WiceLabel>;

export const wiceMacroF1: Metric<WiceRow, WiceLabel> = (rows, predicted) =>
  macroF1(
    rows.map((r, i) => ({ gold: r.claim.gold, predicted: predicted[i]! })),
    WICE_LABELS,
  );

export const idOfRow = (row: WiceRow): string => row.claim.id;
export const goldOfRow = (row: WiceRow): string => row.claim.gold;

export const majority: WiceProcedure = {
  name: 'majority label',
  fit(train) {
    const count = (l: WiceLabel) => train.filter((r) => r.claim.gold === l).length;
    const label = WICE_LABELS.reduce((a, b) => (count(b) > count(a) ? b : a));
    return () => label;
  },
};

export const wordOverlap: WiceProcedure = {
  name: 'word overlap, 2 thresholds',
  fit(train) {
    const t = fitOverlap(train.map((r) => ({ gold: r.claim.gold, score: r.overlap })));
    return (r) => byOverlap(r.overlap, t);
  },
};

export const handSetRules: WiceProcedure = { name: 'hand-set rules (as shipped before)', fit: () => (r) => r.byRules };

/** Two thresholds on one coverage score, fitted on `train` for macro-F1. */
export function fitRule(train: readonly WiceRow[], score: CoverageScore): OfflineVerdictRule {
  const { low, high } = fitOverlap(
    train.filter((r) => !r.contradicted).map((r) => ({ gold: r.claim.gold, score: r.scores[score] })),
  );
  return { score, low, high };
}

/** The offline verdict's label for a row: what checkClaim answers, on WiCE's scale. */
export function decide(row: WiceRow, rule: OfflineVerdictRule): WiceLabel {
  return row.contradicted ? 'not_supported' : supportLevel(row.scores[rule.score], rule);
}

export function coverageRule(score: CoverageScore): WiceProcedure {
  return {
    name: `${score}, 2 thresholds`,
    fit(train) {
      const rule = fitRule(train, score);
      return (r) => decide(r, rule);
    },
  };
}

/**
 * The shipped procedure on `train`: the coverage score the inner folds prefer (ties to the simplest, listed first), and
 * its thresholds.
 */
export function fitOfflineVerdict(train: readonly WiceRow[]): OfflineVerdictRule {
  const candidates = COVERAGE_SCORES.map(coverageRule);
  const chosen = chooseByInnerFolds(train, candidates, wiceMacroF1, idOfRow, { stratum: goldOfRow });
  return fitRule(train, COVERAGE_SCORES[candidates.indexOf(chosen)]!);
}

export const offlineVerdictProcedure: WiceProcedure = {
  name: 'offline verdict (score chosen in fold)',
  fit(train) {
    const rule = fitOfflineVerdict(train);
    return (r) => decide(r, rule);
  },
};
