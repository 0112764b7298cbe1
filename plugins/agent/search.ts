/**
 * POST /api/v1/agent/search: the topic's engines, the best pages read, their
 * passages ranked for the query, and (when asked) a cited answer and images.
 * Depths: depths.ts; Tavily's extra fields: tavily-fields.ts.
 */
import type { AgentServices } from './uses.js';
import { createHash, randomBytes } from 'node:crypto';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { answerQuestion } from '../../services/answers/answer.js';
import { modelFor } from '../../services/llm/model-choice.js';
import type { Embedder } from '../../services/embeddings/types.js';
import { rankPagePassages, type RankedPassage } from '../../services/ranking/page-passages.js';
import { scorePassages } from '../../services/ranking/passage-relevance.js';
import { rerankerForRequest, withReranker, type PassageReranker } from '../../services/ranking/reranker.js';
import { defaultImageEngine, searchImages } from '../../services/sources/images.js';
import type { Source } from '../../services/web-search/gather.js';
import { describeFindings, screenQuery } from '../../services/sources/safety.js';
import { autoParameters, queryComplexity } from './complexity.js';
import { DEPTHS } from './depths.js';
import { describeWithModel, mergeImages, MAX_IMAGES } from './images.js';
import type { AgentSearchInput, AgentSearchOutput } from './schemas.js';
import { TOPIC_ROUTE } from './topics.js';
import {
  containsPhrases,
  dateWindow,
  quotedPhrases,
  regionOf,
  responseTime,
  timeRangeOf,
  withinWindow,
} from './tavily-fields.js';

type Result = AgentSearchOutput['results'][number];

interface Entry {
  source: Source;
  passages: RankedPassage[];
  score: number;
  /** Position in the engines' merged order. */
  order: number;
}

const PASSAGE_SEPARATOR = ' […] ';
/** Time the image engine may take, at most (it runs beside the web engines). */
const IMAGE_SEARCH_MS = 8000;

export function requestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function assertSafeQuery(query: string, field = 'query'): void {
  const findings = screenQuery(query);
  if (findings.length > 0) {
    throw new AppError('UNSAFE_QUERY', `check_safety: the ${field} was refused: ${describeFindings(findings)}`, {
      details: { field, findings },
    });
  }
}

export async function agentSearch(
  services: AgentServices,
  input: AgentSearchInput,
  ctx: CallContext,
): Promise<AgentSearchOutput> {
  const started = performance.now();
  if (input.check_safety) assertSafeQuery(input.query);
  const complexity = queryComplexity(input.query);
  const auto = input.auto_parameters ? autoParameters(input.query, input.topic, input.search_depth) : null;
  const topic = auto?.topic ?? input.topic;
  const depth = auto?.search_depth ?? input.search_depth;
  const profile = DEPTHS[depth];
  const wantsAnswer = input.include_answer !== false;
  const rawFormat =
    input.include_raw_content === false ? null : input.include_raw_content === 'text' ? 'text' : 'markdown';
  const readsPages = profile.readsPages || wantsAnswer || rawFormat !== null;
  const language = input.language ?? 'en';
  const deadline = started + (input.timeout ?? profile.timeoutSeconds) * 1000;
  const total = 4;

  let plans = services.webSearch.plan(TOPIC_ROUTE[topic], input.query);
  if (profile.engines !== null) plans = plans.slice(0, profile.engines);
  const imageEngine = input.include_images ? defaultImageEngine(services.engines) : null;
  const images = imageEngine
    ? searchImages(services.webSearch, {
        query: input.query,
        engines: [imageEngine],
        maxResults: MAX_IMAGES,
        safeSearch: 1,
        language,
        deadline: Math.min(deadline, performance.now() + IMAGE_SEARCH_MS),
        signal: ctx.signal,
      }).catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'agent search: image engine failed');
        return null;
      })
    : null;

  ctx.progress({ progress: 0, total, message: `searching ${plans.length} engines (${topic}, ${depth})` });
  const timeRange = timeRangeOf(input);
  const region = regionOf(input.country, language);
  const gathering = await services.webSearch.gather({
    plans,
    resultsPerEngine: profile.resultsPerEngine(input.max_results),
    readLimit: readsPages ? profile.pagesRead(input.max_results) : 0,
    keepLimit: Math.max(input.max_results * 2, profile.pagesRead(input.max_results)),
    language,
    safeSearch: 1,
    ...(timeRange ? { timeRange } : {}),
    ...(region ? { region } : {}),
    domains: {
      ...(input.include_domains ? { include: input.include_domains } : {}),
      ...(input.exclude_domains ? { exclude: input.exclude_domains } : {}),
    },
    extract: {
      markdown: rawFormat === 'markdown',
      includeImages: input.include_images,
      includeLinks: false,
      media: input.include_images || input.include_favicon,
    },
    deadline: input.fetch_timeout
      ? Math.min(deadline, started + (deadline - started) * 0.5 + input.fetch_timeout * 1000)
      : deadline,
    signal: ctx.signal,
    progress: (message) => ctx.progress({ progress: 1, total, message }),
  });

  const window = dateWindow(input);
  const phrases = input.exact_match ? quotedPhrases(input.query) : [];
  const kept = gathering.sources.filter(
    (s) =>
      withinWindow(s.publishedDate, window) &&
      (phrases.length === 0 || containsPhrases(`${s.title}\n${s.snippet}\n${s.text}`, phrases)),
  );

  ctx.progress({ progress: 2, total, message: `ranking the passages of ${kept.filter((s) => s.read).length} pages` });
  const embedder = profile.embeddings ? await services.semantic.embedderOrNull(ctx.logger) : null;
  const reranker = rerankerForRequest(await services.models.passageReranker());
  const entries = await rankEntries(input.query, kept, embedder, reranker, ctx.signal);
  const rerank = input.rerank || profile.rerank;
  const ordered = rerank ? [...entries].sort((a, b) => b.score - a.score || a.order - b.order) : entries;
  const chosen = ordered.slice(0, input.max_results);
  const passagesShown = input.chunks_per_source ?? profile.passages;

  const results: Result[] = chosen.map(({ source, passages, score }) => {
    const result: Result = {
      id: resultId(source.url),
      title: source.title,
      url: source.url,
      content:
        source.read && passages.length > 0
          ? passages
              .slice(0, passagesShown)
              .map((p) => p.text.replace(/\s+/g, ' ').trim())
              .join(PASSAGE_SEPARATOR)
          : source.snippet,
      score,
      read: source.read,
      engines: source.engines,
    };
    // What is not known is left out, as Tavily's clients type these fields (optional strings).
    if (rawFormat && source.read && source.page)
      result.raw_content = rawFormat === 'markdown' ? source.page.markdown || source.page.text : source.page.text;
    if (source.publishedDate) result.published_date = source.publishedDate;
    const favicon = input.include_favicon ? source.page?.media?.favicon : null;
    if (favicon) result.favicon = favicon;
    if (input.check_safety)
      result.safety = {
        flagged: source.agentInstructions.length > 0,
        reasons: source.agentInstructions.map((f) => describeFindings([f])),
      };
    return result;
  });

  let answer: string | null = null;
  let modelUsed = 'none';
  if (wantsAnswer) {
    ctx.progress({ progress: 3, total, message: 'writing the answer' });
    const use =
      input.model === 'speed' || ((input.model ?? 'auto') === 'auto' && complexity === 'simple')
        ? 'quick-answer'
        : 'considered-answer';
    const cited = await answerQuestion(
      input.query,
      chosen.flatMap((entry, i) =>
        entry.source.read
          ? [
              {
                n: i + 1,
                title: entry.source.title,
                url: entry.source.url,
                text: entry.source.text,
                passages: entry.passages,
              },
            ]
          : [],
      ),
      {
        llm: modelFor(services.llm, use),
        length: input.include_answer === 'advanced' || input.include_answer === 'production' ? 'long' : 'short',
        embedder,
        reranker,
        signal: ctx.signal,
        logger: ctx.logger,
      },
    );
    answer = cited.text;
    modelUsed = cited.model;
  }

  const imageList = input.include_images ? await collectImages(services, input, chosen, images, ctx) : [];
  ctx.progress({ progress: total, total, message: `${results.length} results` });
  const output: AgentSearchOutput = {
    query: input.query,
    answer,
    images: input.include_image_descriptions
      ? imageList.map((i) => ({ url: i.url, description: i.description }))
      : imageList.map((i) => i.url),
    results,
    response_time: responseTime(started),
    model_used: withReranker(modelUsed, reranker),
    query_complexity: complexity,
    request_id: requestId(),
    search_depth: depth,
    topic,
    failed_results: gathering.failures.filter((f) => f.stage === 'page').map((f) => ({ url: f.url, error: f.reason })),
    engines_failed: gathering.engines.failed,
    follow_up_questions: null,
  };
  if (auto) output.auto_parameters = auto;
  return output;
}

/** Read pages score by their best passage; unread ones by title and snippet, on the same scale. */
async function rankEntries(
  query: string,
  sources: Source[],
  embedder: Embedder | null,
  reranker: PassageReranker | null,
  signal: AbortSignal,
): Promise<Entry[]> {
  const read = sources.filter((s) => s.read);
  const unread = sources.filter((s) => !s.read);
  const [ranked, snippetScores] = await Promise.all([
    rankPagePassages(
      query,
      read.map((s) => ({ title: s.title, text: s.text })),
      embedder,
      { signal, reranker },
    ),
    scorePassages(
      query,
      unread.map((s) => ({ text: s.snippet || s.title, title: s.title })),
      embedder,
      signal,
    ),
  ]);
  const byUrl = new Map<string, { passages: RankedPassage[]; score: number }>();
  read.forEach((s, i) => byUrl.set(s.url, { passages: ranked[i]!.passages, score: ranked[i]!.score }));
  unread.forEach((s, i) => byUrl.set(s.url, { passages: [], score: snippetScores[i]!.score }));
  return sources.map((source, order) => ({ source, order, ...byUrl.get(source.url)! }));
}

async function collectImages(
  services: AgentServices,
  input: AgentSearchInput,
  chosen: Entry[],
  engineImages: ReturnType<typeof searchImages> extends Promise<infer R> ? Promise<R | null> | null : never,
  ctx: CallContext,
) {
  const fromEngine =
    (await engineImages)?.images.map((image) => ({ url: image.url, description: image.title || null })) ?? [];
  const fromPages = chosen.flatMap(({ source }) =>
    source.read && source.page ? (source.page.media?.images ?? []) : [],
  );
  const merged = mergeImages([fromEngine, fromPages]);
  const describer = input.include_image_descriptions ? modelFor(services.llm, 'image-description') : null;
  return describer && merged.length > 0
    ? describeWithModel(describer, input.query, merged, { signal: ctx.signal, logger: ctx.logger })
    : merged;
}

/** A result's id: a digest of its URL in UUID form (Tavily's ids look so), stable for the same page. */
function resultId(url: string): string {
  const hex = createHash('sha256').update(url).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
