/**
 * node dist/bench/verify/wice-fit.js [--cache F] [--features a,b] [--l2s 0.01,0.1] — fits
 * an experimental claim-level verdict model (verdict-model.ts) on WiCE dev and
 * says honestly how well it does on claims it was not fitted on:
 *
 *   10-fold cross-validation  each claim decided by weights fitted without it (the figure that matters);
 *   fit → held-out half       fitted on even positions, scored on odd ones;
 *   all claims                fitted and scored on all 349.
 *
 * Beside each: word overlap with two thresholds fitted the same way, and the
 * rules' own verdict. Retrieval and stance run once per claim, on the page's
 * lines as text (the pipeline called directly). It also prints evidence
 * recall: how often an annotated supporting line is among a claim's
 * candidate sentences.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import { assessClaim } from '../../plugins/verify/claims/check-claim.js';
import { featuresOf, VERDICT_FEATURES, type VerdictFeature } from './verdict-features.js';
import { modelDecides, SUPPORT_CLASSES, supportClass, type VerdictWeights } from './verdict-model.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { overlapScore } from './baselines.js';
import { macroF1, pct, printConfusion, recall, type Scored } from './metrics.js';
import { fitSoftmax } from './softmax-fit.js';
import { loadWice, WICE_LABELS, type WiceClaim, type WiceLabel } from './wice-dataset.js';
import { byOverlap, fitOverlap, toWiceLabel } from './wice-report.js';

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const FOLDS = 10;
const L2_GRID = flag('--l2s')?.split(',').map(Number) ?? [0.001, 0.003, 0.01, 0.03, 0.1];
const chosenL2 = Number(flag('--l2') ?? 0.03);

interface Row {
  claim: WiceClaim;
  features: Record<VerdictFeature, number>;
  /** The rules' verdict as a WiCE label, and whether the model decides (claim-verdict.ts). */
  rules: WiceLabel;
  decides: boolean;
  overlap: number;
}

/**
 * What retrieval and stance gave each claim (slow: minutes on a busy machine); --cache F keeps it in F between runs.
 */
async function assess(): Promise<{ rows: Row[]; withGold: number; goldFound: number }> {
  const cache = flag('--cache');
  if (cache && existsSync(cache)) {
    const stored = JSON.parse(readFileSync(cache, 'utf8')) as {
      rows: Array<Omit<Row, 'claim'>>;
      withGold: number;
      goldFound: number;
    };
    return { ...stored, rows: stored.rows.map((r, i) => ({ ...r, claim: claims[i]! })) };
  }
  const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
  const rows: Row[] = [];
  let withGold = 0;
  let goldFound = 0;
  for (const claim of claims) {
    const text = claim.lines.join('\n\n');
    const page = { url: `bench://wice/${claim.id}`, title: claim.title, text, credibility: 0.5 };
    const assessment = await assessClaim(claim.claim, [page], { depth: 'quick', embedder, llm: null });
    rows.push({
      claim,
      features: featuresOf(claim.claim, [claim.title], assessment),
      rules: toWiceLabel(assessment.byRules.verdict),
      decides: modelDecides(assessment.byRules),
      overlap: overlapScore(claim.claim, claim.lines),
    });
    if (claim.supporting.size > 0) {
      withGold++;
      const lines = new Set(assessment.outcome.facts.flatMap((f) => f.evidence.map((e) => lineAt(text, e.start))));
      if ([...claim.supporting].some((i) => lines.has(i))) goldFound++;
    }
  }
  await embedder.close();
  if (cache) writeFileSync(cache, JSON.stringify({ rows: rows.map(({ claim: _, ...r }) => r), withGold, goldFound }));
  return { rows, withGold, goldFound };
}

const claims = loadWice();
const { rows, withGold, goldFound } = await assess();
const featureNames = flag('--features')?.split(',') ?? [...VERDICT_FEATURES];
const vector = (r: Row) => featureNames.map((name) => r.features[name as VerdictFeature]);

/** Index of the line (joined by blank lines) that holds offset `at`. */
function lineAt(text: string, at: number): number {
  return text.slice(0, at).split('\n\n').length - 1;
}

const gold = (r: Row) => WICE_LABELS.indexOf(r.claim.gold);
const fit = (train: Row[], l2: number) =>
  fitSoftmax(featureNames, train.map(vector), train.map(gold), SUPPORT_CLASSES.length, { l2 });
/** The decision checkClaim makes (claim-verdict.ts), with the weights given. */
const decide = (r: Row, weights: VerdictWeights): WiceLabel =>
  r.decides ? supportClass(vector(r), weights).label : r.rules;

/** Each row scored by weights (or thresholds) fitted on the other folds. */
function crossValidated(l2: number): { model: Scored<WiceLabel>[]; overlap: Scored<WiceLabel>[] } {
  const model: Scored<WiceLabel>[] = [];
  const overlap: Scored<WiceLabel>[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = rows.filter((_, i) => i % FOLDS !== f);
    const test = rows.filter((_, i) => i % FOLDS === f);
    const weights = fit(train, l2);
    const t = fitOverlap(train.map((r) => ({ gold: r.claim.gold, score: r.overlap })));
    for (const r of test) {
      model.push({ gold: r.claim.gold, predicted: decide(r, weights) });
      overlap.push({ gold: r.claim.gold, predicted: byOverlap(r.overlap, t) });
    }
  }
  return { model, overlap };
}

function heldOut(l2: number): { model: Scored<WiceLabel>[]; overlap: Scored<WiceLabel>[] } {
  const train = rows.filter((r) => r.claim.half === 'fit');
  const test = rows.filter((r) => r.claim.half === 'held_out');
  const weights = fit(train, l2);
  const t = fitOverlap(train.map((r) => ({ gold: r.claim.gold, score: r.overlap })));
  return {
    model: test.map((r) => ({ gold: r.claim.gold, predicted: decide(r, weights) })),
    overlap: test.map((r) => ({ gold: r.claim.gold, predicted: byOverlap(r.overlap, t) })),
  };
}

const f1 = (s: Scored<WiceLabel>[]) => macroF1(s, WICE_LABELS).toFixed(3);
const recalls = (s: Scored<WiceLabel>[]) => WICE_LABELS.map((l) => recall(s, l).toFixed(2)).join(' / ');

console.log(`WiCE dev: ${rows.length} claims; features: ${featureNames.join(', ')}\n`);
console.log(
  `Evidence recall: ${goldFound} of ${withGold} claims with annotated supporting lines (${pct(goldFound / Math.max(1, withGold))}) have one among their candidate sentences\n`,
);
const rulesRows = rows.map((r) => ({ gold: r.claim.gold, predicted: r.rules }));
const rulesHeldOut = rulesRows.filter((_, i) => rows[i]!.claim.half === 'held_out');
console.log(
  `rules alone (no model): all claims macro-F1 ${f1(rulesRows)}, recall S/P/N ${recalls(rulesRows)}; held-out half ${f1(rulesHeldOut)}\n`,
);
console.log(
  `${'L2'.padEnd(8)}${'10-fold CV'.padStart(12)}${'overlap CV'.padStart(12)}${'held-out'.padStart(10)}${'overlap'.padStart(9)}${'all'.padStart(8)}   CV recall S / P / N`,
);
for (const l2 of L2_GRID) {
  const cv = crossValidated(l2);
  const half = heldOut(l2);
  const weights = fit(rows, l2);
  const all = rows.map((r) => ({ gold: r.claim.gold, predicted: decide(r, weights) }));
  console.log(
    `${String(l2).padEnd(8)}${f1(cv.model).padStart(12)}${f1(cv.overlap).padStart(12)}${f1(half.model).padStart(10)}${f1(half.overlap).padStart(9)}${f1(all).padStart(8)}   ${recalls(cv.model)}`,
  );
}

const weights = fit(rows, chosenL2);
const cv = crossValidated(chosenL2);
console.log(`\nL2 ${chosenL2}:`);
printConfusion('10-fold cross-validated', cv.model, WICE_LABELS);
printConfusion(
  'all claims (fitted on all)',
  rows.map((r) => ({ gold: r.claim.gold, predicted: decide(r, weights) })),
  WICE_LABELS,
);
console.log('\nweights per feature (standardised), supported / partially / not:');
featureNames.forEach((name, i) =>
  console.log(`  ${name.padEnd(28)}${weights.weights.map((row) => row[i]!.toFixed(2).padStart(8)).join('')}`),
);
