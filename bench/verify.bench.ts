/**
 * npm run bench:verify — the claim-verification pipeline on two sets, end to
 * end the way a user hits it (POST /api/v1/verify/claim over HTTP, pages
 * served on a local web and read by the service):
 *
 *   WiCE dev (bench/verify/wice-dataset.ts): 349 Wikipedia claims, each
 *     with the whole noisy web page it cites; supported / partially_supported
 *     / not_supported, scored by three-class macro-F1. The endpoint on every
 *     claim with the shipped verdict (fitted on all of them, so in-sample)
 *     beside the baselines (bench/verify/wice-report.ts).
 *   Climate-FEVER (bench/verify/dataset.ts): each claim's evidence sentences
 *     served as pages; SUPPORTS/REFUTES/NOT_ENOUGH_INFO compared with
 *     true/false/unverifiable (DISPUTED reported apart), per half
 *     (development / held-out test), with the calibration of confidence.
 *
 * First, whichever set: the offline verdict cross-validated on both sets
 * together (bench/verify/offline-cv.ts, the protocol of bench/protocol): its
 * candidates beside each set's baselines fitted the same way, mean ± spread
 * over 5 folds, the final fold only with --final.
 *
 *   --set S       wice, climate-fever or both (default both)
 *   --direct      call the pipeline directly on the pages (no search, no HTTP, no extraction; fast, for tuning)
 *   --limit N     only the first N claims of each set
 *   --depth D     quick (default) or thorough
 *   --fit         print the Platt constants fitted on Climate-FEVER's development half
 *   --final       also score the final fold (once per change, after choosing; docs/benchmarks.md)
 *   --cv-only     the cross-validation only, not the endpoint runs
 *
 * It also checks the credibility label mapping on the real MBFC rows of Baly et al.
 */
import { checkCredibilityMapping } from './verify/credibility-check.js';
import { loadClaims } from './verify/dataset.js';
import { runDirect } from './verify/direct.js';
import { runEndpoint } from './verify/endpoint.js';
import { report } from './verify/report.js';
import { loadWice, wiceAvailable, WICE_FILE } from './verify/wice-dataset.js';
import { finalRequested } from './protocol/report.js';
import { reportOfflineCv, splitBoth } from './verify/offline-cv.js';
import { reportWice } from './verify/wice-report.js';
import { assessClimate, assessWice } from './verify/wice-rows.js';
import { runWiceDirect, runWiceEndpoint } from './verify/wice-run.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : (args[i + 1] ?? '');
};
const limit = flag('--limit') ? Number(flag('--limit')) : Infinity;
const depth = flag('--depth') === 'thorough' ? 'thorough' : 'quick';
const set = flag('--set') ?? 'both';
const direct = args.includes('--direct');
const how = direct ? 'pipeline called directly' : 'full endpoint, pages on a local web';

// The offline verdict is one default for both sets, so its cross-validation reads both, whichever --set.
if (!wiceAvailable()) console.log(`WiCE not found at ${WICE_FILE} (set WICE_FILE); cross-validation skipped\n`);
else {
  const cvStarted = performance.now();
  const [wiceRows, climateRows] = [await assessWice(loadWice()), await assessClimate(loadClaims())];
  reportOfflineCv(splitBoth(wiceRows, climateRows), { final: finalRequested(args) });
  console.log(`Cross-validation in ${((performance.now() - cvStarted) / 1000).toFixed(1)} s\n`);
}

if (args.includes('--cv-only')) process.exit(0);

if ((set === 'wice' || set === 'both') && wiceAvailable()) {
  const claims = loadWice().slice(0, limit);
  const started = performance.now();
  console.log(
    `WiCE dev: ${claims.length} claims, each with the page it cites; ${how}; depth ${depth}; the shipped verdict, fitted on all of them (in-sample)\n`,
  );
  const answers = direct ? await runWiceDirect(claims, depth) : await runWiceEndpoint(claims, depth);
  reportWice(claims, answers);
  console.log(`${claims.length} WiCE claims in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

if (set === 'climate-fever' || set === 'both') {
  checkCredibilityMapping();
  const claims = loadClaims().slice(0, limit);
  const started = performance.now();
  console.log(`Climate-FEVER: ${claims.length} claims; ${how}; depth ${depth}\n`);
  const predictions = direct ? await runDirect(claims, depth) : await runEndpoint(claims, depth);
  report(predictions, claims, { fit: args.includes('--fit') });
  console.log(`\n${claims.length} claims in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
