/**
 * node dist/bench/verify/tune.js — how the constants of the stance rules and
 * the aggregation were chosen: a grid search on the development half only
 * (retrieval runs once; judging and aggregation per setting). The test half's
 * figure for the chosen setting is printed for information, never used to choose.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import { AGGREGATION, credibilityWeight, decideVerdict, factOutcome } from '../../plugins/verify/claims/aggregate.js';
import { RETRIEVAL } from '../../plugins/verify/claims/check-claim.js';
import { decomposeClaim } from '../../plugins/verify/claims/facts.js';
import { retrieveEvidence } from '../../plugins/verify/claims/retrieval.js';
import { judgeByRules, STANCE_RULES } from '../../plugins/verify/claims/stance-rules.js';
import type { Fact } from '../../plugins/verify/claims/facts.js';
import type { Candidate } from '../../plugins/verify/claims/retrieval.js';
import type { BenchClaim } from './dataset.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { loadClaims } from './dataset.js';
import { macroF1 } from './metrics.js';
import { toLabel3 } from './report.js';

const claims = loadClaims().filter((c) => c.gold3);
const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
const prepared: Array<{ claim: BenchClaim; facts: Fact[]; candidates: Candidate[][] }> = [];
for (const claim of claims) {
  const facts = decomposeClaim(claim.claim);
  const pages = claim.pages.map((p) => ({
    url: `bench://${claim.id}/${p.slug}`,
    title: p.title,
    text: p.sentences.join('\n\n'),
    credibility: 0.5,
  }));
  const { candidates } = await retrieveEvidence(facts, pages, embedder, RETRIEVAL.quick);
  prepared.push({ claim, facts, candidates });
}
await embedder.close();

function evaluate(split: 'dev' | 'test'): number {
  const rows = prepared
    .filter((p) => p.claim.split === split)
    .map(({ claim, facts, candidates }) => {
      const outcome = decideVerdict(
        facts.map((fact, i) =>
          factOutcome(
            fact,
            candidates[i]!.map((c) => ({
              ...c,
              weight: credibilityWeight(c.page.credibility),
              judgement: judgeByRules({
                fact: fact.analysis,
                sentence: c.analysis,
                coverage: c.coverage,
                relevance: c.relevance,
              }),
            })),
          ),
        ),
      );
      return { gold: claim.gold3!, predicted: toLabel3(outcome.verdict) };
    });
  return macroF1(rows);
}

const grid = {
  minRelevance: [0.3, 0.35, 0.4],
  contradictionCoverage: [0.3, 0.35, 0.4],
  supportThreshold: [0.65, 0.7, 0.75, 0.8, 0.85, 0.9],
  contradictionThreshold: [0.3, 0.4, 0.5],
  entityShare: [0, 0.25],
};
const results: Array<{ setting: Record<string, number>; dev: number }> = [];
for (const minRelevance of grid.minRelevance)
  for (const contradictionCoverage of grid.contradictionCoverage)
    for (const supportThreshold of grid.supportThreshold)
      for (const contradictionThreshold of grid.contradictionThreshold)
        for (const entityShare of grid.entityShare) {
          Object.assign(STANCE_RULES, { minRelevance, contradictionCoverage, entityShare });
          Object.assign(AGGREGATION, { supportThreshold, contradictionThreshold });
          results.push({
            setting: { minRelevance, contradictionCoverage, supportThreshold, contradictionThreshold, entityShare },
            dev: evaluate('dev'),
          });
        }
results.sort((a, b) => b.dev - a.dev);
for (const r of results.slice(0, 8)) {
  const { minRelevance, contradictionCoverage, entityShare, supportThreshold, contradictionThreshold } = r.setting;
  Object.assign(STANCE_RULES, { minRelevance, contradictionCoverage, entityShare });
  Object.assign(AGGREGATION, { supportThreshold, contradictionThreshold });
  console.log(JSON.stringify(r.setting), 'dev macro-F1', r.dev.toFixed(3), '(test', evaluate('test').toFixed(3) + ')');
}
