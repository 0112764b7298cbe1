/** Docker Hub image search (the catalog search API the hub.docker.com site uses; JSON). */
import { defineEngine, EngineParseError, EngineRateLimitedError, type EngineResult } from '../../core/engine.js';

const PAGE_SIZE = 10;
const SITE = 'https://hub.docker.com';

interface Repository {
  id?: string;
  name?: string;
  slug?: string;
  type?: string;
  source?: string;
  short_description?: string;
  publisher?: { id?: string; name?: string };
  created_at?: string;
  updated_at?: string;
  star_count?: number;
  pull_count?: string | number;
  logo_url?: { small?: string; large?: string };
}

/** Official ("library") images live under /_/<name>, all others under /r/<namespace>/<name>. */
function repositoryUrl(repository: Repository, slug: string): string {
  const official =
    repository.source === 'store' || repository.source === 'official' || repository.publisher?.id === 'docker_library';
  return official && !slug.includes('/') ? `${SITE}/_/${slug}` : `${SITE}/r/${slug}`;
}

function repositoryToResult(repository: Repository): EngineResult | undefined {
  const slug = repository.slug ?? repository.name;
  if (!slug || !repository.name) return undefined;
  return {
    url: repositoryUrl(repository, slug),
    title: repository.name,
    snippet: repository.short_description ?? '',
    publishedDate: repository.updated_at ?? repository.created_at,
    author: repository.publisher?.name,
    thumbnail: repository.logo_url?.large || repository.logo_url?.small || undefined,
    extra: { stars: repository.star_count, pulls: repository.pull_count, source: repository.source },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      query: ctx.query.query,
      from: String((ctx.query.page - 1) * PAGE_SIZE),
      size: String(PAGE_SIZE),
    });
    return {
      method: 'GET',
      url: `${base}/api/search/v3/catalog/search?${params}`,
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { results?: Repository[] };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new EngineParseError('docker hub did not answer JSON');
    }
    return { results: (body.results ?? []).map(repositoryToResult).filter((result) => result !== undefined) };
  },
});
