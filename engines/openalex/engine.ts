/** OpenAlex works search (JSON); abstracts come as an inverted index and are rebuilt here. */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResponse,
  type EngineResult,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const SNIPPET_LENGTH = 400;

interface Work {
  id?: string;
  doi?: string | null;
  display_name?: string | null;
  title?: string | null;
  publication_date?: string | null;
  publication_year?: number | null;
  cited_by_count?: number;
  type?: string;
  authorships?: Array<{ author?: { display_name?: string } }>;
  primary_location?: {
    landing_page_url?: string | null;
    pdf_url?: string | null;
    source?: { display_name?: string } | null;
  } | null;
  open_access?: { oa_url?: string | null };
  abstract_inverted_index?: Record<string, number[]> | null;
}

/** { word: [positions] } back to running text. */
export function rebuildAbstract(index: Record<string, number[]>): string {
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) words[position] = word;
  }
  return words.filter((word) => word !== undefined).join(' ');
}

function shorten(text: string, length: number): string {
  if (text.length <= length) return text;
  return `${text.slice(0, text.lastIndexOf(' ', length) > 0 ? text.lastIndexOf(' ', length) : length)} …`;
}

function readJson(response: EngineResponse): { results?: Work[] } {
  if (response.status === 429) throw new EngineRateLimitedError();
  try {
    return JSON.parse(response.body) as { results?: Work[] };
  } catch {
    throw new EngineParseError('openalex did not answer JSON');
  }
}

function workToResult(work: Work): EngineResult | undefined {
  const title = work.display_name ?? work.title;
  const url = work.doi ?? work.primary_location?.landing_page_url ?? work.id;
  if (!title || !url) return undefined;
  const authors = (work.authorships ?? []).map((authorship) => authorship.author?.display_name ?? '').filter(Boolean);
  const venue = work.primary_location?.source?.display_name;
  const abstract = work.abstract_inverted_index ? rebuildAbstract(work.abstract_inverted_index) : '';
  return {
    url,
    title,
    snippet: abstract ? shorten(abstract, SNIPPET_LENGTH) : [authors.join(', '), venue].filter(Boolean).join(' — '),
    publishedDate: work.publication_date ?? undefined,
    authors: authors.length > 0 ? authors : undefined,
    doi: work.doi?.replace(/^https?:\/\/doi\.org\//, '') || undefined,
    extra: {
      openalexId: work.id,
      venue,
      citations: work.cited_by_count,
      type: work.type,
      pdf: work.primary_location?.pdf_url ?? work.open_access?.oa_url ?? undefined,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      search: ctx.query.query,
      page: String(ctx.query.page),
      'per-page': String(PAGE_SIZE),
    });
    // OpenAlex asks callers to identify themselves for its "polite pool".
    const mailto = ctx.settings.options.mailto;
    if (typeof mailto === 'string' && mailto) params.set('mailto', mailto);
    return { method: 'GET', url: `${base}/works?${params}` };
  },

  parseResponse(response) {
    return { results: (readJson(response).results ?? []).map(workToResult).filter((result) => result !== undefined) };
  },
});
