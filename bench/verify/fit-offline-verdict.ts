/**
 * node dist/bench/verify/fit-offline-verdict.js (after npm run build) — fits
 * the offline verdict shipped in plugins/verify/claims/data/offline-verdict.json.
 * The decision is itself a fixed procedure, so no one chooses by hand:
 *
 *   1. cross-validate (the CV folds only, never the final fold) the learned
 *      procedure (fitOfflineVerdict: a coverage score chosen by inner folds,
 *      then two thresholds) against the plain word-overlap rule
 *      (best_sentence_overlap, two thresholds) fitted the same way;
 *   2. ship the learned procedure fitted on all WiCE dev claims only when it
 *      beats the rule by REQUIRED_GAIN macro-F1 (mean over folds); else the
 *      rule, its thresholds fitted on all claims.
 *
 * Run it after anything that changes what the pipeline reads of a claim, then npm run bench:verify.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { OFFLINE_VERDICT_FILE } from '../../plugins/verify/claims/offline-verdict.js';
import { crossValidate } from '../protocol/cross-validate.js';
import { splitForEvaluation } from '../protocol/folds.js';
import {
  coverageRule,
  fitOfflineVerdict,
  fitRule,
  goldOfRow,
  idOfRow,
  offlineVerdictProcedure,
  wiceMacroF1,
} from './offline-procedure.js';
import { loadWice } from './wice-dataset.js';
import { assessWice } from './wice-rows.js';

/** What a learned verdict must gain over the two-line rule to ship (Quarry issue 47). */
export const REQUIRED_GAIN = 0.05;

const SOURCE_FILE = OFFLINE_VERDICT_FILE.replace(/\/dist\/services\//, '/services/');
const rows = await assessWice(loadWice());
const split = splitForEvaluation(rows, idOfRow, { stratum: goldOfRow });
const [learned, rule] = crossValidate(
  split.folds,
  [offlineVerdictProcedure, coverageRule('best_sentence_overlap')],
  wiceMacroF1,
);
const gain = learned!.mean - rule!.mean;
const shipped = gain >= REQUIRED_GAIN ? fitOfflineVerdict(rows) : fitRule(rows, 'best_sentence_overlap');
const record = {
  ...shipped,
  fitted: `${new Date().toISOString().slice(0, 10)}, on all ${rows.length} WiCE dev claims, by node dist/bench/verify/fit-offline-verdict.js`,
  why: `5-fold CV macro-F1: learned ${learned!.mean.toFixed(3)} ± ${learned!.spread.toFixed(3)}, rule ${rule!.mean.toFixed(3)} ± ${rule!.spread.toFixed(3)}; gain ${gain.toFixed(3)} ${gain >= REQUIRED_GAIN ? '≥' : '<'} ${REQUIRED_GAIN}: ${gain >= REQUIRED_GAIN ? 'the learned procedure ships' : 'the rule ships'}`,
};
writeFileSync(SOURCE_FILE, `${JSON.stringify(record, null, 2)}\n`);
console.log(`wrote ${relative(process.cwd(), SOURCE_FILE)}: ${JSON.stringify(record, null, 2)}`);
