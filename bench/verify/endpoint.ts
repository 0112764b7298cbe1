/**
 * The full endpoint: each claim's evidence pages are served on a local web
 * (the tests' sandbox), a Quarry instance answers POST /api/v1/verify/claim
 * over HTTP, and its engine lists that claim's pages. Claims run a few at a
 * time, each worker on its own engine slot (the request names it with the
 * `engines` extension field).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '../../app/config.js';
import { createQuarry } from '../../app/create-quarry.js';
import type { Depth } from '../../plugins/verify/claims/check-claim.js';
import { buildHttpServer } from '../../hosts/http/server.js';
import { startSandboxWeb } from '../../test/sandbox/sandbox-web.js';
import type { BenchClaim } from './dataset.js';
import type { Prediction } from './report.js';

const KEY = 'bench-key-0123456789';
const WORKERS = 4;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One claim and the pages its search lists, as the local web serves them. */
export interface ServedClaim {
  claim: string;
  pages: Array<{ path: string; title: string; snippet: string; html: string }>;
}

export interface EndpointAnswer {
  verdict: Prediction['verdict'];
  confidence: number;
  /** The supporting snippets answered, strongest first. */
  supporting: string[];
  pagesRead: number;
}

function pagePath(claim: BenchClaim, slug: string): string {
  return `/cf/${claim.id}/${slug}`;
}

/** Climate-FEVER: each claim's sentences as one page per Wikipedia article. */
export async function runEndpoint(claims: BenchClaim[], depth: Depth): Promise<Prediction[]> {
  const served = claims.map(
    (claim): ServedClaim => ({
      claim: claim.claim,
      pages: claim.pages.map((page) => ({
        path: pagePath(claim, page.slug),
        title: page.title,
        snippet: page.sentences[0] ?? '',
        html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head><body><article><h1>${escapeHtml(page.title)}</h1>\n${page.sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join('\n')}\n</article></body></html>`,
      })),
    }),
  );
  const answers = await askEndpoint(served, depth);
  return answers.map((a, i) => ({
    claim: claims[i]!,
    verdict: a.verdict,
    confidence: a.confidence,
    strength: Number.NaN,
  }));
}

export async function askEndpoint(claims: ServedClaim[], depth: Depth): Promise<EndpointAnswer[]> {
  const web = await startSandboxWeb();
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-verify-'));
  for (const claim of claims) for (const page of claim.pages) web.addPage(page.path, page.html);
  const slots = Array.from({ length: WORKERS }, (_, i) => `bench_slot_${i}`);
  const overrides: ConfigInput = {
    dataDir,
    apiKeys: [KEY],
    // The bench sends more than a client would; the rate limit is tested elsewhere.
    rateLimitPerMinute: 1_000_000,
    logLevel: 'silent',
    outbound: { allowHosts: [`127.0.0.1:${web.port}`], retries: 0 },
    customEngines: slots.map((id, i) => ({
      type: 'json' as const,
      id,
      name: `Benchmark slot ${i}`,
      urlTemplate: `${web.url}/slot/${i}/find?q={query}`,
      results: 'items',
      fields: { url: 'link', title: 'name', snippet: 'summary' },
    })),
    search: { defaultEngines: [slots[0]!] },
    vectorIndex: { enabled: false },
  };
  const app = await createQuarry({ overrides, env: {} });
  const server = await buildHttpServer(app, { apiKeys: [KEY] });
  const url = await server.listen({ host: '127.0.0.1', port: 0 });
  const out: EndpointAnswer[] = new Array(claims.length);
  let next = 0;
  let pagesRead = 0;
  let pagesServed = 0;
  const worker = async (slot: number): Promise<void> => {
    while (next < claims.length) {
      const index = next++;
      const claim = claims[index]!;
      const items = claim.pages.map((p) => ({ link: `${web.url}${p.path}`, name: p.title, summary: p.snippet }));
      web.addPage(`/slot/${slot}/find`, JSON.stringify({ items }), { contentType: 'application/json' });
      const response = await fetch(`${url}/api/v1/verify/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify({ claim: claim.claim, depth, engines: [slots[slot]], include_sources: true }),
      });
      const body = (await response.json()) as {
        verdict: Prediction['verdict'];
        confidence: number;
        sources_checked: number;
        supporting_evidence: Array<{ snippet: string }>;
      };
      if (response.status !== 200)
        throw new Error(
          `claim ${index} ("${claim.claim.slice(0, 60)}"): HTTP ${response.status} ${JSON.stringify(body)}`,
        );
      pagesRead += body.sources_checked;
      pagesServed += claim.pages.length;
      out[index] = {
        verdict: body.verdict,
        confidence: body.confidence,
        supporting: body.supporting_evidence.map((e) => e.snippet),
        pagesRead: body.sources_checked,
      };
      if ((index + 1) % 250 === 0) console.error(`  ${index + 1} claims`);
    }
  };
  try {
    await Promise.all(slots.map((_, i) => worker(i)));
  } finally {
    await server.close();
    await app.close();
    await web.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`Pages read by the endpoint: ${pagesRead} of ${pagesServed} served\n`);
  return out;
}
