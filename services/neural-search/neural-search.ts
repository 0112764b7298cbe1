/**
 * POST /api/v1/neural/search: expand the query, fan out to the category's
 * engines, read the candidate pages, add pages from the local index, and
 * rank everything by meaning blended with words (scoring.ts).
 */
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import type { NeuralDeps } from './deps.js';
import { expandQuery } from './autoprompt.js';
import { gatherFromEngines, gatherFromIndex, uniqueCandidates, type Candidate } from './candidates.js';
import { isoDay, windowBounds, withinWindow } from './dates.js';
import { findHighlights } from '../ranking/highlights.js';
import type { NeuralSearchInput, neuralSearchOutputSchema } from './schemas.js';
import { passesDomains } from '../web-search/domain-filter.js';
import { replan, type EnginePlan } from '../web-search/engine-plans.js';
import { rerankScores, rerankerForRequest, withReranker } from '../ranking/reranker.js';
import { scoreDocuments } from '../ranking/scoring.js';
import { resultContent, type ContentOptions } from './result-content.js';

type Output = z.infer<typeof neuralSearchOutputSchema>;

/** Engines that also receive the expanded queries (the rest get the original only, to spare them). */
const ENGINES_PER_EXPANSION = 2;
const CONTENT_CHARS = 4000;
const HIGHLIGHTS_PER_RESULT = 3;
/** The start of a document the cross-encoder reads (it truncates at 512 tokens anyway). */
const RERANK_CHARS = 2000;

/** `options`: how much of each page a result carries (result-content.ts). */
export async function neuralSearch(
  services: NeuralDeps,
  input: NeuralSearchInput,
  ctx: CallContext,
  options: ContentOptions = {},
): Promise<Output> {
  const started = performance.now();
  const deadline = started + input.timeout * 1000;
  const total = 5;
  ctx.progress({ progress: 0, total, message: 'expanding the query' });

  const expansion = input.use_autoprompt
    ? await expandQuery(input.query, input.category, services.llm, ctx.logger, ctx.signal)
    : { queries: [], by: 'none' };
  const basePlan = services.webSearch.plan(input.category ?? 'default', input.query);
  const plans: EnginePlan[] = [...basePlan];
  // Finance news engines keep their focus on the expanded queries too.
  for (const expanded of expansion.queries)
    plans.push(...replan(basePlan.slice(0, ENGINES_PER_EXPANSION), input.query, expanded));

  ctx.progress({
    progress: 1,
    total,
    message: `querying ${basePlan.length} engines with ${1 + expansion.queries.length} queries`,
  });
  const domains = {
    ...(input.include_domains ? { include: input.include_domains } : {}),
    ...(input.exclude_domains ? { exclude: input.exclude_domains } : {}),
  };
  const bounds = windowBounds({
    ...(input.start_published_date ? { start: input.start_published_date } : {}),
    ...(input.end_published_date ? { end: input.end_published_date } : {}),
  });
  const scrapeLimit = Math.min(30, Math.max(10, input.num_results * 2));

  const embedder = await services.semantic.embedder();
  const [fromEngines, fromIndex] = await Promise.all([
    gatherFromEngines(services, plans, {
      language: input.language,
      deadline,
      scrapeLimit,
      domains,
      ctx,
      progressBase: 2,
      progressTotal: total,
    }),
    embedder.embed([input.query], ctx.signal).then(([vector]) =>
      gatherFromIndex(
        services,
        {
          vector: vector!,
          text: input.query,
          ...(input.include_domains ? { includeDomains: input.include_domains } : {}),
          ...(input.exclude_domains ? { excludeDomains: input.exclude_domains } : {}),
          ...(bounds && isoDay(bounds.from) ? { publishedAfter: isoDay(bounds.from)! } : {}),
          ...(bounds && isoDay(bounds.to) ? { publishedBefore: isoDay(bounds.to)! } : {}),
        },
        input.num_results,
      ).catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'the local page index could not be searched');
        return [] as Candidate[];
      }),
    ),
  ]);

  ctx.progress({ progress: 3, total, message: 'ranking by meaning' });
  const candidates = uniqueCandidates([...fromEngines.candidates, ...fromIndex]).filter(
    (c) => passesDomains(c.url, domains) && withinWindow(c.publishedDate, bounds),
  );
  const scores = await scoreDocuments(input.query, candidates, embedder, ctx.signal);
  const reranker = rerankerForRequest((await services.models?.passageReranker()) ?? null);
  if (reranker) {
    const texts = candidates.map((c) => `${c.title}\n${c.text || c.snippet}`.slice(0, RERANK_CHARS));
    const reranked = await rerankScores(
      input.query,
      texts,
      scores.map((s) => s.score),
      reranker,
      ctx.signal,
    );
    reranked.forEach((score, i) => (scores[i] = { ...scores[i]!, score }));
  }
  const ranked = candidates
    .map((candidate, i) => ({ candidate, score: scores[i]! }))
    .sort((a, b) => b.score.score - a.score.score)
    .slice(0, input.num_results);

  ctx.progress({ progress: 4, total, message: input.include_highlights ? 'picking highlights' : 'done' });
  const results: Output['results'] = [];
  for (const { candidate, score } of ranked) {
    const content = candidate.text || candidate.snippet;
    const result: Output['results'][number] = {
      title: candidate.title,
      url: candidate.url,
      content: resultContent(content, options, CONTENT_CHARS),
      score: score.score,
      // Always present (null when unknown): clients read these keys without checking for them.
      published_date: candidate.publishedDate ?? null,
      author: candidate.author ?? null,
      source: candidate.source,
      semantic_score: score.semantic,
      lexical_score: score.lexical,
    };
    if (input.include_highlights) {
      result.highlights = (
        await findHighlights(input.query, content, HIGHLIGHTS_PER_RESULT, 'sentence', embedder, ctx.signal)
      ).map((h) => h.text);
    }
    results.push(result);
  }
  ctx.progress({ progress: total, total, message: `${results.length} results` });

  return {
    query: input.query,
    expanded_queries: expansion.queries,
    results,
    autoprompt_used: input.use_autoprompt && expansion.queries.length > 0,
    search_type: 'neural',
    response_time_ms: Math.round(performance.now() - started),
    engines_used: fromEngines.enginesUsed,
    engines_failed: fromEngines.enginesFailed,
    engine_errors: fromEngines.engineErrors,
    pages_failed: fromEngines.pagesFailed,
    embedding_model: embedder.info().id,
    model_used: withReranker(
      !input.use_autoprompt ? 'none' : expansion.by === 'rules' ? 'rules' : expansion.by,
      reranker,
    ),
  };
}
