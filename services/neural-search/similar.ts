/**
 * POST /api/v1/neural/similar: pages like a source page or text. The source
 * is read (when a URL), turned into searches (its title and key phrases),
 * and candidates from the engines and the local index are ranked by the
 * cosine between their embedding and the source's (mean of passage vectors,
 * centred and calibrated as in calibration.ts).
 */
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import { cosine } from '../embeddings/types.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import type { NeuralDeps } from './deps.js';
import { normalizeUrl } from '../web-search/url-normalize.js';
import { gatherFromEngines, gatherFromIndex, uniqueCandidates } from './candidates.js';
import { keyPhrases } from './keyphrases.js';
import type { similarInputSchema, similarOutputSchema } from './schemas.js';
import { calibrated, embedCentred } from '../ranking/calibration.js';
import { docPassages, meanVector, round } from '../ranking/scoring.js';
import { resultContent, type ContentOptions } from './result-content.js';

type Input = z.infer<typeof similarInputSchema>;
type Output = z.infer<typeof similarOutputSchema>;

const CONTENT_CHARS = 1500;

export function queriesFromSource(title: string, text: string): string[] {
  const phrases = keyPhrases(`${title}\n${title}\n${text}`, 6).map((p) => p.phrase);
  const queries: string[] = [];
  const cleanTitle = title.replace(/\s+[|–—-]\s+[^|–—-]+$/, '').trim();
  if (cleanTitle.split(/\s+/).length >= 2) queries.push(cleanTitle.slice(0, 200));
  if (phrases.length > 0) queries.push(phrases.slice(0, 4).join(' '));
  if (queries.length === 0) queries.push(text.split(/\s+/).slice(0, 12).join(' '));
  return [...new Set(queries)];
}

/** `options`: how much of each page a result carries (result-content.ts). */
export async function similarSearch(
  services: NeuralDeps,
  input: Input,
  ctx: CallContext,
  options: ContentOptions = {},
): Promise<Output> {
  const started = performance.now();
  const deadline = started + input.timeout * 1000;
  const total = 4;
  let title = '';
  let text = input.text ?? '';
  if (input.url) {
    ctx.progress({ progress: 0, total, message: `reading ${input.url}` });
    const [page] = await services.scraper.scrapeMany([input.url], {
      timeoutMs: Math.min(20_000, input.timeout * 500),
      signal: ctx.signal,
      extract: { markdown: false, includeImages: false, includeLinks: false },
    });
    if (!page?.success) {
      // The source's own failure is the caller's answer: a refused address stays a 403, a dead host a 502.
      const passThrough: ErrorCode[] = [
        'FORBIDDEN_ADDRESS',
        'ROBOTS_DISALLOWED',
        'TIMEOUT',
        'CANCELLED',
        'UNREACHABLE',
      ];
      const code = passThrough.includes(page?.errorCode as ErrorCode)
        ? (page!.errorCode as ErrorCode)
        : 'UPSTREAM_FAILED';
      throw new AppError(
        code,
        `could not read the source URL ${input.url}: ${page?.failureReason ?? 'unknown failure'}`,
      );
    }
    title = page.title;
    text = page.text;
  }

  const embedder = await services.semantic.embedder();
  const sourcePassages = await docPassages({ title, snippet: '', text });
  // Raw vectors query the index (it stores raw vectors); centred ones rank (calibration.ts).
  const sourceVector = meanVector(await embedder.embed(sourcePassages, ctx.signal), embedder.info().dimensions);

  const queries = queriesFromSource(title, text);
  const base = services.webSearch.plan('default', queries[0]!);
  const plans = queries.flatMap((query) => base.map((p) => ({ engine: p.engine, query })));
  ctx.progress({ progress: 1, total, message: `searching for ${queries.map((q) => `"${q}"`).join(', ')}` });
  const [fromEngines, fromIndex] = await Promise.all([
    gatherFromEngines(services, plans, {
      language: 'en',
      deadline,
      scrapeLimit: Math.min(30, input.num_results * 2 + 2),
      domains: {},
      ctx,
      progressBase: 2,
      progressTotal: total,
    }),
    gatherFromIndex(services, { vector: sourceVector, limit: input.num_results + 2 }, input.num_results + 2).catch(
      (error: unknown) => {
        ctx.logger.warn({ err: error }, 'the local page index could not be searched');
        return [];
      },
    ),
  ]);

  ctx.progress({ progress: 3, total, message: 'ranking by similarity to the source' });
  const sourceKey = input.url ? normalizeUrl(input.url) : null;
  const candidates = uniqueCandidates([...fromEngines.candidates, ...fromIndex]).filter(
    (c) => !(input.exclude_source && sourceKey && normalizeUrl(c.url) === sourceKey),
  );
  const passages = await Promise.all(candidates.map(docPassages));
  const { vectors, floor } = await embedCentred(embedder, [...sourcePassages, ...passages.flat()], ctx.signal);
  const dimensions = sourceVector.length;
  const source = meanVector(vectors.slice(0, sourcePassages.length), dimensions);
  let offset = sourcePassages.length;
  const scored = candidates.map((candidate, i) => {
    const own = vectors.slice(offset, offset + passages[i]!.length);
    offset += passages[i]!.length;
    return {
      candidate,
      score: own.length > 0 ? round(calibrated(cosine(source, meanVector(own, dimensions)), floor)) : 0,
    };
  });
  scored.sort((a, b) => b.score - a.score);
  ctx.progress({ progress: total, total, message: 'done' });

  return {
    source: input.url ?? 'text',
    similar: scored.slice(0, input.num_results).map(({ candidate, score }) => {
      const content = candidate.text || candidate.snippet;
      return {
        title: candidate.title,
        url: candidate.url,
        content: resultContent(content, options, CONTENT_CHARS),
        score,
        published_date: candidate.publishedDate,
        source: candidate.source,
      };
    }),
    response_time_ms: Math.round(performance.now() - started),
    queries,
    engines_failed: fromEngines.enginesFailed,
    embedding_model: embedder.info().id,
  };
}
