/** crates.io registry search API (JSON). */
import { defineEngine, EngineParseError, EngineRateLimitedError, type EngineResult } from '../../core/engine.js';

const PAGE_SIZE = 10;
const SITE = 'https://crates.io';

interface Crate {
  id?: string;
  name?: string;
  description?: string | null;
  max_version?: string;
  newest_version?: string;
  max_stable_version?: string | null;
  downloads?: number;
  recent_downloads?: number | null;
  updated_at?: string;
  created_at?: string;
  repository?: string | null;
  documentation?: string | null;
  homepage?: string | null;
}

function crateToResult(crate: Crate): EngineResult | undefined {
  const name = crate.name ?? crate.id;
  if (!name) return undefined;
  return {
    url: `${SITE}/crates/${encodeURIComponent(name)}`,
    title: name,
    snippet: (crate.description ?? '').replace(/\s+/g, ' ').trim(),
    publishedDate: crate.updated_at,
    extra: {
      version: crate.max_stable_version ?? crate.newest_version ?? crate.max_version,
      downloads: crate.downloads,
      recentDownloads: crate.recent_downloads ?? undefined,
      repository: crate.repository ?? undefined,
      documentation: crate.documentation ?? undefined,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      q: ctx.query.query,
      page: String(ctx.query.page),
      per_page: String(PAGE_SIZE),
    });
    return { method: 'GET', url: `${base}/api/v1/crates?${params}`, headers: { accept: 'application/json' } };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { crates?: Crate[]; errors?: Array<{ detail?: string }> };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('crates.io did not answer JSON');
    }
    if (body.errors?.length)
      throw new EngineParseError(`crates.io: ${body.errors.map((error) => error.detail).join('; ')}`);
    return { results: (body.crates ?? []).map(crateToResult).filter((result) => result !== undefined) };
  },
});
