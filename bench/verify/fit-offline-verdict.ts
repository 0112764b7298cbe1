/**
 * node dist/bench/verify/fit-offline-verdict.js (after npm run build) — fits
 * the offline verdict shipped in plugins/verify/claims/data/offline-verdict.json.
 * The decision is itself a fixed procedure, so no one chooses by hand:
 *
 *   1. cross-validate (the CV folds only, never the final fold) the two-line
 *      rule (word overlap on the page lines, two thresholds, no gate) and the
 *      rule with a contradiction gate chosen in the training folds
 *      (fitChosenGate), on WiCE and Climate-FEVER together (offline-cv.ts);
 *   2. ship the gated rule, fitted on every claim of both sets, only when its
 *      CV mean is not below the rule's on WiCE and above it on Climate-FEVER;
 *      else the rule, its thresholds fitted on every WiCE claim.
 *
 * Issue 47's goal is REQUIRED_GAIN over the rule on WiCE; the record says whether it was met.
 * Run it after anything that changes what the pipeline reads of a claim, then npm run bench:verify.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { OFFLINE_VERDICT_FILE } from '../../plugins/verify/claims/offline-verdict.js';
import { loadClaims } from './dataset.js';
import { crossValidateRules, splitBoth } from './offline-cv.js';
import { chosenGate, THE_RULE } from './offline-procedure.js';
import { loadWice } from './wice-dataset.js';
import { assessClimate, assessWice } from './wice-rows.js';

/** What a verdict should gain over the two-line rule on WiCE (Quarry issue 47). */
export const REQUIRED_GAIN = 0.05;

const SOURCE_FILE = OFFLINE_VERDICT_FILE.replace(/\/dist\/plugins\//, '/plugins/');
const [wice, climate] = [await assessWice(loadWice()), await assessClimate(loadClaims())];
const [rule, gated] = crossValidateRules(splitBoth(wice, climate), [THE_RULE, chosenGate]);
const wiceGain = gated!.wice.mean - rule!.wice.mean;
const climateGain = gated!.climate.mean - rule!.climate.mean;
const gateShips = wiceGain >= 0 && climateGain > 0;
const shipped = gateShips ? chosenGate.fit(wice, climate) : THE_RULE.fit(wice, climate);
const figure = (f: { mean: number; spread: number }) => `${f.mean.toFixed(3)} ± ${f.spread.toFixed(3)}`;
const record = {
  ...shipped,
  fitted: `${new Date().toISOString().slice(0, 10)}, on all ${wice.length} WiCE dev claims${gateShips ? ` and ${climate.length} Climate-FEVER claims` : ''}, by node dist/bench/verify/fit-offline-verdict.js`,
  why:
    `5-fold CV macro-F1, WiCE: rule ${figure(rule!.wice)}, gated ${figure(gated!.wice)}; ` +
    `Climate-FEVER: rule ${figure(rule!.climate)}, gated ${figure(gated!.climate)}; ` +
    `${gateShips ? 'the gated rule ships' : 'the rule ships'}; ` +
    `WiCE gain ${wiceGain.toFixed(3)} ${wiceGain >= REQUIRED_GAIN ? '≥' : '<'} the ${REQUIRED_GAIN} goal`,
};
writeFileSync(SOURCE_FILE, `${JSON.stringify(record, null, 2)}\n`);
console.log(`wrote ${relative(process.cwd(), SOURCE_FILE)}: ${JSON.stringify(record, null, 2)}`);
