/** Semantic Scholar Graph API paper search (JSON). */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResponse,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const FIELDS = 'title,url,abstract,authors,year,venue,externalIds,publicationDate,citationCount,openAccessPdf';

interface Paper {
  paperId?: string;
  title?: string;
  url?: string;
  abstract?: string | null;
  authors?: Array<{ name?: string }>;
  year?: number | null;
  venue?: string | null;
  externalIds?: Record<string, string | number> | null;
  publicationDate?: string | null;
  citationCount?: number;
  openAccessPdf?: { url?: string } | null;
}

function readJson(response: EngineResponse): { data?: Paper[] } {
  if (response.status === 429) throw new EngineRateLimitedError();
  if (response.status === 401 || response.status === 403)
    throw new EngineAccessDeniedError(`semantic scholar answered HTTP ${response.status}`);
  try {
    return JSON.parse(response.body) as { data?: Paper[] };
  } catch {
    throw new EngineParseError('semantic scholar did not answer JSON');
  }
}

function paperToResult(paper: Paper): EngineResult | undefined {
  if (!paper.paperId || !paper.title) return undefined;
  const authors = (paper.authors ?? []).map((author) => author.name ?? '').filter(Boolean);
  const doi = paper.externalIds?.DOI;
  return {
    url: paper.url || `https://www.semanticscholar.org/paper/${paper.paperId}`,
    title: paper.title,
    snippet: paper.abstract ?? [authors.join(', '), paper.venue, paper.year].filter(Boolean).join(' — '),
    publishedDate: paper.publicationDate ?? (paper.year ? String(paper.year) : undefined),
    authors: authors.length > 0 ? authors : undefined,
    doi: typeof doi === 'string' ? doi : undefined,
    extra: {
      venue: paper.venue || undefined,
      citations: paper.citationCount,
      pdf: paper.openAccessPdf?.url || undefined,
      arxiv: paper.externalIds?.ArXiv,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      query: ctx.query.query,
      offset: String((ctx.query.page - 1) * PAGE_SIZE),
      limit: String(PAGE_SIZE),
      fields: FIELDS,
    });
    const headers: Record<string, string> = ctx.settings.apiKey ? { 'x-api-key': ctx.settings.apiKey } : {};
    return { method: 'GET', url: `${base}/graph/v1/paper/search?${params}`, headers };
  },

  parseResponse(response) {
    const results = (readJson(response).data ?? []).map(paperToResult).filter((result) => result !== undefined);
    return { results };
  },
});
