/**
 * What the verify pipeline, called directly on each WiCE claim's page (no
 * search, no HTTP, no extraction; offline, rules only), knows of the claim:
 * the coverage scores the offline verdict chooses between, the fact-level
 * rules' verdict, and the word-overlap baseline's score of the page's lines.
 * Every fitting procedure of the verify bench decides from these rows.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import { assessClaim } from '../../plugins/verify/claims/check-claim.js';
import type { CoverageScore } from '../../plugins/verify/claims/coverage-scores.js';
import { contradicted } from '../../plugins/verify/claims/offline-verdict.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { overlapScore } from './baselines.js';
import type { WiceClaim, WiceLabel } from './wice-dataset.js';
import { toWiceLabel } from './wice-report.js';

export interface WiceRow {
  claim: WiceClaim;
  scores: Record<CoverageScore, number>;
  /** The fact-level rules' verdict (aggregate.ts) as a WiCE label. */
  byRules: WiceLabel;
  /** The stance rules found the claim contradicted (false or misleading). */
  contradicted: boolean;
  /** The baseline's word overlap: the claim's share of content words in its best line. */
  overlap: number;
}

export async function assessWice(claims: readonly WiceClaim[]): Promise<WiceRow[]> {
  const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
  try {
    const rows: WiceRow[] = [];
    for (const claim of claims) {
      const page = {
        url: `bench://wice/${claim.id}`,
        title: claim.title,
        text: claim.lines.join('\n\n'),
        credibility: 0.5,
      };
      const assessment = await assessClaim(claim.claim, [page], { depth: 'quick', embedder, llm: null });
      rows.push({
        claim,
        scores: assessment.scores,
        byRules: toWiceLabel(assessment.byRules.verdict),
        contradicted: contradicted(assessment.byRules),
        overlap: overlapScore(claim.claim, claim.lines),
      });
    }
    return rows;
  } finally {
    await embedder.close();
  }
}
