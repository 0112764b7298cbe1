/**
 * The research loop shared by agent research and RAG research (docs/agent.md,
 * "Research"):
 *
 *   for each round (at most `rounds`, within the deadline):
 *     search the round's queries on the topic's engines, read the best new
 *     pages (the search service's gather: URL and near-duplicate dedupe across rounds),
 *     rank every page's passages for every question,
 *     a question is answered when some passage scores ≥ ANSWERED_MIN;
 *     the next round searches follow-up queries for the unanswered ones
 *     (the fast LLM tier writes them; without one: the subject plus the
 *     question's terms its best passage lacks).
 *
 * Each round gets an equal share of the time left. Progress is reported per
 * step; the caller's signal stops the work between and inside steps.
 */
import type { Chunker } from '../chunking/lead.js';
import type { SafeSearch } from '../../core/engine.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { ANSWERED_MIN } from '../answers/extractive.js';
import type { Embedder } from '../embeddings/types.js';
import { parseModelJson } from '../llm/json-output.js';
import type { LlmClient } from '../llm/types.js';
import { rankPagePassages, type RankedPage } from '../ranking/page-passages.js';
import type { PassageReranker } from '../ranking/reranker.js';
import { queryTerms, type PassageVectorCache } from '../ranking/passage-relevance.js';
import { tokenize } from '../ranking/tokens.js';
import { replan, type EnginePlan } from '../web-search/engine-plans.js';
import {
  newSeenSources,
  type DomainFilter,
  type SeenSources,
  type Source,
  type SourceFailure,
} from '../web-search/gather.js';
import type { WebSearch } from '../web-search/web-search.js';

export interface ResearchStep {
  message: string;
}

export interface ResearchLoopOptions {
  subject: string;
  questions: string[];
  /** The engines for the subject; each question is sent to the same engines. */
  plans: EnginePlan[];
  rounds: number;
  pagesPerRound: number;
  /** False: pages are not read; the engines' snippets stand in for their text (default true). */
  readPages?: boolean;
  resultsPerEngine: number;
  language: string;
  safeSearch?: SafeSearch;
  domains?: DomainFilter;
  deadline: number;
  signal: AbortSignal;
  embedder: Embedder | null;
  /** A configured cross-encoder (models.reranker) orders each question's best passages. */
  reranker?: PassageReranker | null;
  /** Cuts the pages into passages off the event loop (the worker pool's chunk task). */
  chunker?: Chunker;
  llm: LlmClient | null;
  logger?: Pick<Logger, 'info' | 'warn'>;
  progress?(step: ResearchStep): void;
  /** Each round's newly read sources and the queries that found them, before ranking (RAG stores them as they come). */
  onSources?(sources: Source[], round: number, queries: string[]): Promise<void>;
  /** What earlier work gathered (a resumed build): those URLs and near copies of their texts are skipped. */
  seen?: SeenSources;
}

export interface QuestionCoverage {
  question: string;
  /** Best passage score for the question over every page read. */
  best: number;
  answered: boolean;
}

export interface ResearchOutcome {
  /** Pages read and kept, in the order they were gathered. */
  sources: Source[];
  coverage: QuestionCoverage[];
  /** ranked[q][s]: the passages of sources[s] ranked for questions[q]. */
  ranked: RankedPage[][];
  queriesExecuted: string[];
  rounds: number;
  /** Distinct results the engines returned, over every round. */
  found: number;
  failures: SourceFailure[];
  enginesFailed: string[];
  pagesFailed: number;
  duplicates: number;
  vectors: PassageVectorCache;
}

export async function runResearch(
  webSearch: Pick<WebSearch, 'gather'>,
  options: ResearchLoopOptions,
): Promise<ResearchOutcome> {
  const { signal } = options;
  const seen = options.seen ?? newSeenSources();
  const vectors: PassageVectorCache = new Map();
  const sources: Source[] = [];
  const failures: SourceFailure[] = [];
  const queriesExecuted: string[] = [];
  const enginesFailed = new Set<string>();
  let pagesFailed = 0;
  let duplicates = 0;
  let found = 0;
  let ranked: RankedPage[][] = options.questions.map(() => []);
  let coverage: QuestionCoverage[] = options.questions.map((question) => ({ question, best: 0, answered: false }));
  let queries = [...new Set(options.questions)];
  let round = 0;

  while (round < options.rounds && queries.length > 0) {
    const remaining = options.deadline - performance.now();
    if (remaining < 1000 && round > 0) break;
    round++;
    const roundDeadline = performance.now() + remaining / (options.rounds - round + 1);
    options.progress?.({ message: `round ${round}: searching ${queries.length} queries` });
    const gathering = await webSearch.gather({
      plans: queries.flatMap((query) => replan(options.plans, options.subject, query)),
      resultsPerEngine: options.resultsPerEngine,
      readLimit: options.readPages === false ? 0 : options.pagesPerRound,
      keepLimit: options.pagesPerRound,
      language: options.language,
      safeSearch: options.safeSearch ?? 1,
      ...(options.domains ? { domains: options.domains } : {}),
      extract: { markdown: false, includeImages: false, includeLinks: false },
      deadline: roundDeadline,
      signal,
      seen,
      progress: (message) => options.progress?.({ message: `round ${round}: ${message}` }),
    });
    queriesExecuted.push(...gathering.queries);
    for (const engine of gathering.engines.failed) enginesFailed.add(engine);
    failures.push(...gathering.failures);
    pagesFailed += gathering.pagesFailed;
    duplicates += gathering.duplicates;
    found += gathering.found;
    const fresh =
      options.readPages === false
        ? gathering.sources.filter((s) => s.snippet.trim()).map((s) => ({ ...s, text: s.snippet }))
        : gathering.sources.filter((s) => s.read);
    sources.push(...fresh);
    options.logger?.info(
      {
        round,
        queries: gathering.queries.length,
        read: fresh.length,
        failed: gathering.pagesFailed,
        duplicates: gathering.duplicates,
      },
      'research round gathered sources',
    );
    await options.onSources?.(fresh, round, gathering.queries);
    if (signal.aborted) throw new AppError('CANCELLED', 'the research was cancelled');

    options.progress?.({
      message: `round ${round}: ranking ${sources.length} pages for ${options.questions.length} questions`,
    });
    ranked = [];
    for (const question of options.questions) {
      ranked.push(
        await rankPagePassages(
          question,
          sources.map((s) => ({ title: s.title, text: s.text })),
          options.embedder,
          {
            signal,
            vectors,
            reranker: options.reranker ?? null,
            ...(options.chunker ? { chunker: options.chunker } : {}),
          },
        ),
      );
    }
    coverage = options.questions.map((question, q) => {
      const best = Math.max(0, ...ranked[q]!.map((page) => page.score));
      return { question, best, answered: best >= ANSWERED_MIN };
    });
    const open = coverage.filter((c) => !c.answered);
    options.progress?.({
      message: `round ${round} done: ${coverage.length - open.length} of ${coverage.length} questions answered, ${sources.length} pages`,
    });
    if (round >= options.rounds || open.length === 0) break;
    queries = (await followUps(options, open, ranked)).filter((q) => !queriesExecuted.includes(q));
  }

  return {
    sources,
    coverage,
    ranked,
    queriesExecuted,
    rounds: round,
    found,
    failures,
    enginesFailed: [...enginesFailed],
    pagesFailed,
    duplicates,
    vectors,
  };
}

/** One follow-up query per unanswered question. */
async function followUps(
  options: ResearchLoopOptions,
  open: QuestionCoverage[],
  ranked: RankedPage[][],
): Promise<string[]> {
  if (options.llm) {
    try {
      const response = await options.llm.complete({
        system:
          'Earlier web searches did not answer these research questions. For each, write one new, different ' +
          'web search query (3 to 10 words) likely to find the answer. Answer with JSON: {"queries": ' +
          '[string, ...]} in the order given.',
        messages: [
          {
            role: 'user',
            content: `Subject: ${options.subject}\n\nUnanswered questions:\n${open.map((c, i) => `${i + 1}. ${c.question}`).join('\n')}`,
          },
        ],
        json: true,
        temperature: 0.3,
        signal: options.signal,
      });
      const answer = (response.json ?? parseModelJson(response.text)) as { queries?: unknown };
      const written = Array.isArray(answer?.queries)
        ? answer.queries.filter((q): q is string => typeof q === 'string' && q.trim().length > 0)
        : [];
      if (written.length > 0) return [...new Set(written.map((q) => q.replace(/\s+/g, ' ').trim().slice(0, 300)))];
    } catch (error) {
      if (options.signal.aborted) throw error;
      options.logger?.warn({ err: error }, 'research: the model wrote no follow-up queries; using the missing terms');
    }
  }
  return open
    .map((c) => {
      const q = options.questions.indexOf(c.question);
      const bestPassage = ranked[q]
        ?.flatMap((page, s) => page.passages.slice(0, 1).map((p) => ({ p, s })))
        .sort((a, b) => b.p.relevance.score - a.p.relevance.score)[0];
      const found = new Set(bestPassage ? tokenize(bestPassage.p.text) : []);
      const missing = queryTerms(c.question).terms.filter((term) => !found.has(term));
      const subjectTerms = new Set(tokenize(options.subject));
      const extra = missing.filter((term) => !subjectTerms.has(term));
      // Terms are stems; the question's own words are searched, not the stems.
      const words = c.question.split(/\s+/).filter((word) => extra.some((term) => tokenize(word)[0] === term));
      return words.length > 0 ? `${options.subject} ${words.join(' ')}` : `${c.question} explained`;
    })
    .filter((q, i, all) => all.indexOf(q) === i);
}
