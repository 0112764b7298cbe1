/**
 * The verdict pipeline called directly on each claim's pages (no search, no HTTP): fast, for tuning on the development
 * half.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import { checkClaim, type Depth } from '../../plugins/verify/claims/check-claim.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import type { BenchClaim } from './dataset.js';
import type { Prediction } from './report.js';

export async function runDirect(claims: BenchClaim[], depth: Depth): Promise<Prediction[]> {
  const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
  try {
    const out: Prediction[] = [];
    for (const claim of claims) {
      const pages = claim.pages.map((p) => ({
        url: `bench://${claim.id}/${p.slug}`,
        title: p.title,
        text: p.sentences.join('\n\n'),
        credibility: 0.5,
      }));
      const check = await checkClaim(claim.claim, pages, { depth, embedder, llm: null });
      out.push({ claim, verdict: check.verdict, confidence: check.confidence, strength: check.strength });
    }
    return out;
  } finally {
    await embedder.close();
  }
}
