/**
 * WiCE through the verify pipeline: each claim's cited page served as HTML on
 * the local web and read by the endpoint (the default), or its lines handed
 * to the pipeline directly (`--direct`, no search, no HTTP, no extraction).
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../core/logger.js';
import { checkClaim, type Depth } from '../../plugins/verify/claims/check-claim.js';
import { createEmbedder } from '../../services/embeddings/embedding-service.js';
import { askEndpoint, escapeHtml, type EndpointAnswer } from './endpoint.js';
import type { WiceClaim } from './wice-dataset.js';

/** The page as a site would serve it: its title, headings as headings, every other line a paragraph. */
function pageHtml(claim: WiceClaim): string {
  const body = claim.lines.map((line) => {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    return heading
      ? `<h${heading[1]!.length}>${escapeHtml(heading[2]!)}</h${heading[1]!.length}>`
      : `<p>${escapeHtml(line)}</p>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(claim.title)}</title></head><body>\n${body.join('\n')}\n</body></html>`;
}

export function runWiceEndpoint(claims: WiceClaim[], depth: Depth): Promise<EndpointAnswer[]> {
  return askEndpoint(
    claims.map((claim) => ({
      claim: claim.claim,
      pages: [
        {
          path: `/wice/${claim.id}`,
          title: claim.title,
          snippet: claim.lines.find((l) => l.length > 60) ?? '',
          html: pageHtml(claim),
        },
      ],
    })),
    depth,
  );
}

export async function runWiceDirect(claims: WiceClaim[], depth: Depth): Promise<EndpointAnswer[]> {
  const embedder = await createEmbedder({ model: null, allowRemote: false, dataDir: tmpdir() }, silentLogger());
  try {
    const out: EndpointAnswer[] = [];
    for (const claim of claims) {
      const page = {
        url: `bench://wice/${claim.id}`,
        title: claim.title,
        text: claim.lines.join('\n\n'),
        credibility: 0.5,
      };
      const check = await checkClaim(claim.claim, [page], { depth, embedder, llm: null });
      const supporting = check.facts.flatMap((f) =>
        f.evidence.filter((e) => e.judgement.stance === 'supports').map((e) => e.sentence),
      );
      out.push({ verdict: check.verdict, confidence: check.confidence, supporting, pagesRead: 1 });
    }
    return out;
  } finally {
    await embedder.close();
  }
}
