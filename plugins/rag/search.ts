/**
 * POST /api/v1/rag/search: the engines' results for the query, the pages
 * read, their passages ranked (services/ranking), the best max_sources pages
 * with an extractive summary each (LLM-written when one is configured), and
 * the context: the best chunks of those pages within max_context_tokens,
 * ordered for reading, each tagged [n] with its source (services/answers/context.ts).
 */
import type { RagServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { fitContext } from '../../services/answers/context.js';
import { modelFor } from '../../services/llm/model-choice.js';
import { extractiveSummary, writtenSummaries } from '../../services/answers/summary.js';
import { EXTRACTIVE_MODEL } from '../../services/llm/registry.js';
import { rankPagePassages } from '../../services/ranking/page-passages.js';
import { rerankerForRequest, withReranker } from '../../services/ranking/reranker.js';
import type { RagSearchInput, RagSearchOutput } from './schemas.js';

export const CONTENT_CHARS = 8000;
/** Passage size for context chunks (tokens). */
const CONTEXT_PASSAGE_TOKENS = 160;

export function defaultEngines(services: RagServices, engines: string[] | undefined): string[] {
  if (engines) {
    services.webSearch.assertKnownEngines(engines);
    return [...new Set(engines)];
  }
  return [services.config.search.defaultSingleEngine];
}

export function clip(text: string, max = CONTENT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export async function ragSearch(
  services: RagServices,
  input: RagSearchInput,
  ctx: CallContext,
): Promise<RagSearchOutput> {
  const started = performance.now();
  const engines = defaultEngines(services, input.engines);
  ctx.progress({ progress: 0, total: 3, message: `searching ${engines.join(', ')}` });
  const gathering = await services.webSearch.gather({
    plans: engines.map((engine) => ({ engine, query: input.query })),
    resultsPerEngine: input.max_sources + 3,
    readLimit: input.scrape_content ? input.max_sources + 2 : 0,
    keepLimit: input.max_sources + 2,
    language: input.language,
    safeSearch: 1,
    extract: { markdown: false, includeImages: false, includeLinks: false },
    deadline: started + input.timeout * 1000,
    signal: ctx.signal,
    progress: (message) => ctx.progress({ progress: 1, total: 3, message }),
  });

  ctx.progress({ progress: 2, total: 3, message: 'ranking passages' });
  const embedder = await services.semantic.embedderOrNull(ctx.logger);
  // Unread pages (scrape_content false, or a failed read) compete on their title and snippet.
  const candidates = gathering.sources
    .map((source) => ({ source, text: source.read ? source.text : source.snippet }))
    .filter((c) => c.text.trim().length > 0);
  const reranker = rerankerForRequest(await services.models.passageReranker());
  const ranked = await rankPagePassages(
    input.query,
    candidates.map((c) => ({ title: c.source.title, text: c.text })),
    embedder,
    {
      passageTokens: CONTEXT_PASSAGE_TOKENS,
      signal: ctx.signal,
      reranker,
    },
  );
  const chosen = candidates
    .map((c, i) => ({ ...c, ranked: ranked[i]!, score: ranked[i]!.score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, input.max_sources);

  const llm = modelFor(services.llm, 'page-summary');
  const written =
    llm && chosen.length > 0
      ? await writtenSummaries(
          llm,
          input.query,
          chosen.map((c) => ({ title: c.source.title, text: c.text })),
          { signal: ctx.signal, logger: ctx.logger },
        )
      : [];
  const summaries: string[] = [];
  for (const [i, c] of chosen.entries())
    summaries.push(
      written[i] ?? (await extractiveSummary(input.query, c.text, embedder, { reranker, signal: ctx.signal })),
    );
  const scrapedAt = new Date().toISOString();

  const fitted = input.include_context
    ? fitContext(
        chosen.flatMap((c, i) =>
          c.ranked.passages.map((p) => ({ source: i + 1, text: p.text, score: p.relevance.score, position: p.start })),
        ),
        input.max_context_tokens,
      )
    : { context: '', tokens: 0, chunks: [] };
  ctx.progress({ progress: 3, total: 3, message: `${chosen.length} sources, ${fitted.tokens} tokens of context` });
  return {
    query: input.query,
    context: fitted.context,
    sources: chosen.map((c, i) => ({
      url: c.source.url,
      title: c.source.title,
      content: clip(c.text),
      summary: summaries[i]!,
      relevance_score: c.score,
      word_count: c.source.read && c.source.page ? c.source.page.wordCount : c.text.split(/\s+/).filter(Boolean).length,
      engine: c.source.engines[0] ?? '',
      scraped_at: scrapedAt,
    })),
    source_count: chosen.length,
    processing_time_ms: Math.round(performance.now() - started),
    context_tokens: fitted.tokens,
    model_used: withReranker(written.some((w) => w !== null) ? llm!.model : EXTRACTIVE_MODEL, reranker),
    engines_failed: gathering.engines.failed,
    failed_results: gathering.failures.filter((f) => f.stage === 'page').map((f) => ({ url: f.url, error: f.reason })),
  };
}
