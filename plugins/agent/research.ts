/**
 * POST /api/v1/agent/research: plan sub-questions, run the research loop
 * (services/research/loop.ts), keep the best max_sources pages and write a
 * cited report (services/answers/report.ts).
 *
 * | depth         | sub-questions | rounds | pages read per round  | default timeout |
 * |---------------|---------------|--------|-----------------------|-----------------|
 * | quick         | 2             | 1      | max_sources           | 45 s            |
 * | standard      | 4             | 1      | 1.5 × max_sources     | 90 s            |
 * | deep          | 6             | 2      | max_sources           | 180 s           |
 * | comprehensive | 8             | 3      | max_sources           | 300 s           |
 */
import { responseTime } from './tavily-fields.js';
import type { AgentServices } from './uses.js';
import { pooledChunker } from '../../services/chunking/lead.js';
import type { CallContext } from '../../core/capability.js';
import type { AnswerSourceWithUrl } from '../../services/answers/answer.js';
import { modelFor } from '../../services/llm/model-choice.js';
import { writeReport } from '../../services/answers/report.js';
import { rankPagePassages } from '../../services/ranking/page-passages.js';
import { rerankerForRequest, withReranker } from '../../services/ranking/reranker.js';
import { runResearch } from '../../services/research/loop.js';
import { FACETS, planQuestions } from '../../services/research/plan.js';
import type { AgentResearchInput, AgentResearchReport, ResearchDepth } from './schemas.js';
import { TOPIC_ROUTE } from './topics.js';

interface ResearchProfile {
  questions: number;
  rounds: number;
  pagesPerRound(maxSources: number): number;
  resultsPerEngine: number;
  timeoutSeconds: number;
}

export const RESEARCH_PROFILES: Record<ResearchDepth, ResearchProfile> = {
  quick: { questions: 2, rounds: 1, pagesPerRound: (m) => m, resultsPerEngine: 5, timeoutSeconds: 45 },
  standard: {
    questions: 4,
    rounds: 1,
    pagesPerRound: (m) => Math.ceil(1.5 * m),
    resultsPerEngine: 6,
    timeoutSeconds: 90,
  },
  deep: { questions: 6, rounds: 2, pagesPerRound: (m) => m, resultsPerEngine: 8, timeoutSeconds: 180 },
  comprehensive: { questions: 8, rounds: 3, pagesPerRound: (m) => m, resultsPerEngine: 8, timeoutSeconds: 300 },
};

const CONTENT_CHARS = 1200;

export async function agentResearch(
  services: AgentServices,
  input: AgentResearchInput,
  ctx: CallContext,
): Promise<AgentResearchReport> {
  const started = performance.now();
  const profile = RESEARCH_PROFILES[input.depth];
  const deadline = started + (input.timeout ?? profile.timeoutSeconds) * 1000;
  const plans = services.webSearch.plan(TOPIC_ROUTE[input.topic], input.query);
  let step = 0;
  const report = (message: string) => ctx.progress({ progress: ++step, message });

  report(`planning ${profile.questions} sub-questions`);
  const plan = await planQuestions(input.query, {
    count: profile.questions,
    templates: FACETS,
    ...(input.focus_areas ? { focusAreas: input.focus_areas } : {}),
    llm: modelFor(services.llm, 'research-plan'),
    signal: ctx.signal,
    logger: ctx.logger,
  });
  report(`sub-questions: ${plan.questions.join(' | ')}`);

  const embedder = await services.semantic.embedderOrNull(ctx.logger);
  const reranker = rerankerForRequest(await services.models.passageReranker());
  const outcome = await runResearch(services.webSearch, {
    subject: input.query,
    questions: plan.questions,
    plans,
    rounds: profile.rounds,
    pagesPerRound: profile.pagesPerRound(input.max_sources),
    resultsPerEngine: profile.resultsPerEngine,
    language: 'en',
    deadline,
    signal: ctx.signal,
    embedder,
    reranker,
    chunker: pooledChunker(services.parsing, ctx.signal),
    llm: modelFor(services.llm, 'research-plan'),
    logger: ctx.logger,
    progress: ({ message }) => report(message),
  });

  // The best max_sources pages by their best passage for any sub-question.
  const best = outcome.sources
    .map((source, s) => ({
      source,
      s,
      score: Math.max(0, ...outcome.ranked.map((perQuestion) => perQuestion[s]?.score ?? 0)),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, input.max_sources);
  report(`writing the report from ${best.length} sources`);
  const forQuestion = (q: number): AnswerSourceWithUrl[] =>
    best.map(({ source, s }, i) => ({
      n: i + 1,
      title: source.title,
      url: source.url,
      text: source.text,
      passages: outcome.ranked[q]![s]!.passages,
    }));
  const main = await rankPagePassages(
    input.query,
    best.map((b) => ({ title: b.source.title, text: b.source.text })),
    embedder,
    { signal: ctx.signal, vectors: outcome.vectors, reranker },
  );
  const written = await writeReport(
    input.query,
    plan.questions.map((question, q) => ({ question, sources: forQuestion(q) })),
    {
      llm: modelFor(services.llm, 'research-report'),
      embedder,
      reranker,
      summarySources: best.map(({ source }, i) => ({
        n: i + 1,
        title: source.title,
        url: source.url,
        text: source.text,
        passages: main[i]!.passages,
      })),
      includeSummary: input.include_summary,
      includeAnalysis: input.include_analysis,
      signal: ctx.signal,
      logger: ctx.logger,
    },
  );

  report('done');
  return {
    query: input.query,
    executive_summary: written.executive_summary,
    detailed_analysis: written.detailed_analysis,
    key_findings: written.key_findings,
    sources: best.map(({ source, s, score }) => {
      const top = outcome.ranked
        .map((perQuestion) => perQuestion[s]!.passages[0])
        .filter((p) => p !== undefined)
        .sort((a, b) => b.relevance.score - a.relevance.score)[0];
      const content = (top?.text ?? source.snippet).replace(/\s+/g, ' ').trim();
      return {
        title: source.title,
        url: source.url,
        content: content.length > CONTENT_CHARS ? `${content.slice(0, CONTENT_CHARS)}…` : content,
        score,
      };
    }),
    methodology: {
      queries_executed: outcome.queriesExecuted.length,
      sources_analyzed: outcome.sources.length,
      depth: input.depth,
      rounds: outcome.rounds,
      sub_questions: plan.questions,
      queries: outcome.queriesExecuted,
      planned_by: plan.plannedBy,
      pages_failed: outcome.pagesFailed,
      duplicates_removed: outcome.duplicates,
      failures: outcome.failures.map((f) => ({ url: f.url, stage: f.stage, reason: f.reason })),
      engines_failed: outcome.enginesFailed,
      unanswered: written.unanswered,
    },
    model_used: withReranker(written.model, reranker),
    response_time: responseTime(started),
  };
}
