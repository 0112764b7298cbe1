/**
 * What the verify pipeline, called directly on each claim's pages (no search,
 * no HTTP, no extraction; offline, rules only), knows of the claim: the
 * coverage scores and contradiction signals the offline verdict decides from,
 * the fact-level rules' verdict, and the gold label. Every fitting procedure
 * of the verify bench decides from these rows, WiCE's and Climate-FEVER's.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import type { Verdict } from '../../plugins/verify/claims/aggregate.js';
import { assessClaim } from '../../plugins/verify/claims/check-claim.js';
import type { OfflineEvidence } from '../../plugins/verify/claims/offline-verdict.js';
import type { EvidencePage } from '../../plugins/verify/claims/retrieval.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { overlapScore } from './baselines.js';
import type { BenchClaim } from './dataset.js';
import type { WiceClaim, WiceLabel } from './wice-dataset.js';
import { toWiceLabel } from './wice-report.js';

export interface AssessedRow<C> {
  claim: C;
  evidence: OfflineEvidence;
  /** The fact-level rules' verdict (aggregate.ts). */
  rules: Verdict;
}

export interface WiceRow extends AssessedRow<WiceClaim> {
  /** The fact-level rules' verdict as a WiCE label. */
  byRules: WiceLabel;
  /** The baseline's word overlap: the claim's share of content words in its best line. */
  overlap: number;
}

export type ClimateRow = AssessedRow<BenchClaim>;

async function assessAll<C>(
  claims: readonly C[],
  read: (claim: C) => { text: string; pages: EvidencePage[] },
): Promise<AssessedRow<C>[]> {
  const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
  try {
    const rows: AssessedRow<C>[] = [];
    for (const claim of claims) {
      const { text, pages } = read(claim);
      const a = await assessClaim(text, pages, { depth: 'quick', embedder, llm: null });
      rows.push({ claim, evidence: { scores: a.scores, conflicts: a.conflicts }, rules: a.byRules.verdict });
    }
    return rows;
  } finally {
    await embedder.close();
  }
}

export async function assessWice(claims: readonly WiceClaim[]): Promise<WiceRow[]> {
  const rows = await assessAll(claims, (claim) => ({
    text: claim.claim,
    pages: [{ url: `bench://wice/${claim.id}`, title: claim.title, text: claim.lines.join('\n\n'), credibility: 0.5 }],
  }));
  return rows.map((r) => ({
    ...r,
    byRules: toWiceLabel(r.rules),
    overlap: overlapScore(r.claim.claim, r.claim.lines),
  }));
}

export function assessClimate(claims: readonly BenchClaim[]): Promise<ClimateRow[]> {
  return assessAll(claims, (claim) => ({
    text: claim.claim,
    pages: claim.pages.map((p) => ({
      url: `bench://${claim.id}/${p.slug}`,
      title: p.title,
      text: p.sentences.join('\n\n'),
      credibility: 0.5,
    })),
  }));
}
