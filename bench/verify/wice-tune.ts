/**
 * node dist/bench/verify/wice-tune.js — how the grading constants of the
 * aggregation (AGGREGATION.fullGrade, partGrade, partShare and the penalty for
 * names no page mentions) were chosen: a grid search for the best
 * three-class macro-F1 on WiCE's fit half only (even positions; retrieval and
 * stance run once, on the page's lines as text). The held-out half's figure
 * of each setting is printed beside it, never used to choose.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import {
  AGGREGATION,
  credibilityWeight,
  decideVerdict,
  factOutcome,
  type JudgedCandidate,
} from '../../plugins/verify/claims/aggregate.js';
import { RETRIEVAL } from '../../plugins/verify/claims/check-claim.js';
import { reachOf, type FactReach } from '../../plugins/verify/claims/fact-parts.js';
import { decomposeClaim, type Fact } from '../../plugins/verify/claims/facts.js';
import { retrieveEvidence } from '../../plugins/verify/claims/retrieval.js';
import { stanceOf } from '../../plugins/verify/claims/stance.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { macroF1, printConfusion } from './metrics.js';
import { loadWice, WICE_LABELS, type WiceClaim } from './wice-dataset.js';
import { toWiceLabel } from './wice-report.js';

const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
const prepared: Array<{ claim: WiceClaim; facts: Array<{ fact: Fact; judged: JudgedCandidate[]; reach: FactReach }> }> =
  [];
for (const claim of loadWice()) {
  const facts = decomposeClaim(claim.claim);
  const page = {
    url: `bench://wice/${claim.id}`,
    title: claim.title,
    text: claim.lines.join('\n\n'),
    credibility: 0.5,
  };
  const { candidates, mentions } = await retrieveEvidence(facts, [page], embedder, RETRIEVAL.quick);
  prepared.push({
    claim,
    facts: facts.map((fact, i) => {
      const judged = candidates[i]!.map((c) => ({
        ...c,
        judgement: stanceOf(fact, c),
        weight: credibilityWeight(c.page.credibility),
      }));
      return { fact, judged, reach: reachOf(fact, judged, mentions) };
    }),
  });
}
await embedder.close();

/** Gold and predicted label of each claim under the current AGGREGATION. */
function labelled(claims: typeof prepared) {
  return claims.map(({ claim, facts }) => ({
    gold: claim.gold,
    predicted: toWiceLabel(
      decideVerdict(facts.map((f) => factOutcome(f.fact, f.judged, AGGREGATION, f.reach))).verdict,
    ),
  }));
}

function evaluate(half: WiceClaim['half']): number {
  return macroF1(labelled(prepared.filter((p) => p.claim.half === half)), WICE_LABELS);
}

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 100) / 100);
const results: Array<{ setting: Partial<typeof AGGREGATION>; fit: number; heldOut: number }> = [];
for (const partShare of [0, 0.3, 0.45, 0.6])
  for (const unmentionedNamePenalty of [0, 0.2, 0.4])
    for (const partGrade of range(0.2, 0.5, 0.04))
      for (const fullGrade of range(0.5, 0.9, 0.04)) {
        const setting = { partShare, unmentionedNamePenalty, partGrade, fullGrade };
        Object.assign(AGGREGATION, setting);
        results.push({ setting, fit: evaluate('fit'), heldOut: evaluate('held_out') });
      }
results.sort((a, b) => b.fit - a.fit);
{
  Object.assign(AGGREGATION, results[0]!.setting);
  printConfusion('best setting, all claims', labelled(prepared), WICE_LABELS);
}
for (const r of results.slice(0, 10))
  console.log(JSON.stringify(r.setting), 'fit', r.fit.toFixed(3), '(held out', `${r.heldOut.toFixed(3)})`);
