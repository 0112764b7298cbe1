/**
 * npm run bench:verify — the claim-verification pipeline on Climate-FEVER
 * (bench/verify/dataset.ts): each claim's evidence sentences are served as
 * pages on a local web, the full POST /api/v1/verify/claim endpoint is run,
 * and SUPPORTS/REFUTES/NOT_ENOUGH_INFO are compared with true/false/
 * unverifiable (DISPUTED is reported apart). Accuracy, macro-F1 and the
 * confusion matrix are printed beside two baselines from the same run, per
 * half (development / held-out test), with the calibration of confidence.
 *
 *   --direct      call the pipeline directly on the pages (no search, no HTTP; fast, for tuning)
 *   --limit N     only the first N claims
 *   --depth D     quick (default) or thorough
 *   --fit         print the Platt constants fitted on the development half
 *
 * It also checks the credibility label mapping on the real MBFC rows of Baly et al.
 */
import { checkCredibilityMapping } from './verify/credibility-check.js';
import { loadClaims } from './verify/dataset.js';
import { runDirect } from './verify/direct.js';
import { runEndpoint } from './verify/endpoint.js';
import { report } from './verify/report.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : (args[i + 1] ?? '');
};
const limit = flag('--limit') ? Number(flag('--limit')) : Infinity;
const depth = flag('--depth') === 'thorough' ? 'thorough' : 'quick';
checkCredibilityMapping();
const claims = loadClaims().slice(0, limit);
const started = performance.now();
const direct = args.includes('--direct');
console.log(`Climate-FEVER: ${claims.length} claims; ${direct ? 'pipeline called directly' : 'full endpoint, pages on a local web'}; depth ${depth}\n`);
const predictions = direct ? await runDirect(claims, depth) : await runEndpoint(claims, depth);
report(predictions, claims, { fit: args.includes('--fit') });
console.log(`\n${claims.length} claims in ${((performance.now() - started) / 1000).toFixed(1)} s`);
