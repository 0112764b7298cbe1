/**
 * POST /api/v1/neural/predictive: likely next searches. With neither a
 * context nor recent searches, it predicts from the searches this server has
 * seen recently from the same caller (API key). Sources, merged and ranked by
 * confidence (docs/neural.md):
 *   - engines' autocomplete for the latest search and for the context;
 *   - key phrases of the context and of pages in the local index that match it;
 *   - the fast language model, when one is configured.
 */
import type { NeuralServices } from './uses.js';
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import { modelUsed } from '../../services/llm/registry.js';
import { keyPhrases } from '../../services/neural-search/keyphrases.js';
import type { predictiveInputSchema, predictiveOutputSchema } from './schemas.js';
import { round } from '../../services/ranking/scoring.js';
import { writtenWords } from '../../services/ranking/tokens.js';
import { modelFor } from '../../services/llm/model-choice.js';

type Input = z.infer<typeof predictiveInputSchema>;
type Output = z.infer<typeof predictiveOutputSchema>;
type Prediction = Output['predictions'][number];

const AUTOCOMPLETE_ENGINES = ['duckduckgo', 'wikipedia', 'google', 'brave'];
const AUTOCOMPLETE_TIMEOUT_MS = 4000;
/** Searches taken from the caller's history when the request gives none. */
const HISTORY_SEARCHES = 10;

function seedFromContext(context: string): string {
  const phrases = keyPhrases(context, 3).map((p) => p.phrase);
  return phrases.length > 0 ? phrases.slice(0, 2).join(' ') : context.split(/\s+/).slice(0, 6).join(' ');
}

async function fromAutocomplete(
  services: NeuralServices,
  seeds: Array<{ text: string; weight: number; from: string }>,
  ctx: CallContext,
  failed: Set<string>,
): Promise<Prediction[]> {
  const engines = AUTOCOMPLETE_ENGINES.filter(
    (id) =>
      services.engines.has(id) &&
      services.engines.disabledReason(id) === null &&
      services.engines.get(id).definition.autocomplete,
  ).slice(0, 2);
  const calls = seeds.flatMap((seed) =>
    engines.map(async (engine) => {
      try {
        const suggestions = await services.engines.autocomplete(engine, seed.text, 'en', {
          signal: ctx.signal,
          timeoutMs: AUTOCOMPLETE_TIMEOUT_MS,
        });
        return suggestions.slice(0, 8).map((query, rank) => ({
          query,
          confidence: round(seed.weight * (0.9 - 0.07 * rank)),
          reason: `${engine} autocomplete for ${seed.from} "${seed.text}" (rank ${rank + 1})`,
        }));
      } catch (error) {
        failed.add(engine);
        ctx.logger.debug({ err: error, engine }, 'autocomplete failed');
        return [];
      }
    }),
  );
  return (await Promise.all(calls)).flat();
}

async function fromIndexAndContext(
  services: NeuralServices,
  input: Input,
  latest: string | undefined,
  ctx: CallContext,
): Promise<Prediction[]> {
  const out: Prediction[] = [];
  const exclude = writtenWords(`${latest ?? ''} ${(input.recent_searches ?? []).join(' ')}`.toLowerCase());
  if (input.context) {
    keyPhrases(input.context, 5, exclude).forEach((phrase, rank) => {
      const query = latest ? `${latest} ${phrase.phrase}` : phrase.phrase;
      out.push({ query, confidence: round(0.7 - 0.06 * rank), reason: `key phrase "${phrase.phrase}" of the context` });
    });
  }
  const seed = [latest, input.context].filter(Boolean).join('\n');
  try {
    const index = await services.semantic.pageIndex();
    if (index && seed) {
      const embedder = await services.semantic.embedder();
      const [vector] = await embedder.embed([seed], ctx.signal);
      const hits = await index.search({ vector: vector!, text: latest ?? seed.slice(0, 200), limit: 20 });
      const phrases = keyPhrases(hits.map((h) => `${h.title}\n${h.text}`).join('\n'), 5, exclude);
      phrases.forEach((phrase, rank) => {
        out.push({
          query: latest ? `${latest} ${phrase.phrase}` : phrase.phrase,
          confidence: round(Math.min(0.75, 0.45 + 0.03 * phrase.count) - 0.04 * rank),
          reason: `"${phrase.phrase}" recurs in ${hits.length} indexed passages about ${latest ? `"${latest}"` : 'the context'}`,
        });
      });
    }
  } catch (error) {
    ctx.logger.debug({ err: error }, 'the local page index gave no predictions');
  }
  return out;
}

async function fromLlm(
  services: NeuralServices,
  input: Input,
  ctx: CallContext,
  failed: Set<string>,
): Promise<Prediction[]> {
  const llm = modelFor(services.llm, 'query-prediction');
  if (!llm) return [];
  try {
    const response = await llm.complete({
      system:
        'Predict the next web searches a user will make. Return JSON {"predictions": [{"query": "...", ' +
        '"reason": "..."}]}, most likely first, ' +
        `at most ${input.num_predictions}. Reasons are one short sentence.`,
      messages: [
        {
          role: 'user',
          content: [
            input.context ? `Current topic: ${input.context}` : '',
            input.recent_searches?.length
              ? `Recent searches, oldest first:\n- ${input.recent_searches.join('\n- ')}`
              : '',
          ]
            .filter(Boolean)
            .join('\n\n'),
        },
      ],
      json: {
        name: 'predictions',
        schema: {
          type: 'object',
          properties: {
            predictions: {
              type: 'array',
              items: {
                type: 'object',
                properties: { query: { type: 'string' }, reason: { type: 'string' } },
                required: ['query', 'reason'],
                additionalProperties: false,
              },
            },
          },
          required: ['predictions'],
          additionalProperties: false,
        },
      },
      maxTokens: 400,
      temperature: 0.3,
      signal: ctx.signal,
    });
    const list = (response.json as { predictions?: unknown } | undefined)?.predictions;
    if (!Array.isArray(list)) throw new Error('no predictions array in the answer');
    return list
      .filter(
        (p): p is { query: string; reason: string } =>
          typeof p?.query === 'string' && typeof p?.reason === 'string' && p.query.trim() !== '',
      )
      .slice(0, input.num_predictions)
      .map((p, rank) => ({
        query: p.query.trim(),
        confidence: round(0.95 - 0.05 * rank),
        reason: `${response.model}: ${p.reason}`,
      }));
  } catch (error) {
    failed.add(`llm:${llm.model}`);
    ctx.logger.warn({ err: error }, 'next-search prediction by the language model failed; using the other sources');
    return [];
  }
}

export async function predictNext(services: NeuralServices, given: Input, ctx: CallContext): Promise<Output> {
  const fromHistory = given.context === undefined && (given.recent_searches?.length ?? 0) === 0;
  const input: Input = fromHistory
    ? { ...given, recent_searches: await services.searchHistory.recent(ctx.caller, HISTORY_SEARCHES) }
    : given;
  const recent = input.recent_searches ?? [];
  if (recent.length === 0 && input.context === undefined) {
    // Nothing sent and no history yet for this caller: nothing to predict from.
    return {
      predictions: [],
      context_used: false,
      model_used: 'extractive',
      sources_failed: [],
      recent_searches_used: [],
    };
  }
  const latest = recent.at(-1);
  const failed = new Set<string>();
  const seeds: Array<{ text: string; weight: number; from: string }> = [];
  if (latest) seeds.push({ text: latest, weight: 1, from: 'the latest search' });
  if (input.context)
    seeds.push({ text: seedFromContext(input.context), weight: latest ? 0.85 : 1, from: 'the context' });

  const [auto, local, model] = await Promise.all([
    fromAutocomplete(services, seeds, ctx, failed),
    fromIndexAndContext(services, input, latest, ctx),
    fromLlm(services, input, ctx, failed),
  ]);

  const already = new Set(recent.map((q) => q.trim().toLowerCase()));
  const best = new Map<string, Prediction>();
  for (const prediction of [...model, ...auto, ...local]) {
    const key = prediction.query.trim().toLowerCase().replace(/\s+/g, ' ');
    if (already.has(key)) continue;
    const existing = best.get(key);
    if (!existing || existing.confidence < prediction.confidence) best.set(key, prediction);
  }
  const predictions = [...best.values()].sort((a, b) => b.confidence - a.confidence).slice(0, input.num_predictions);
  return {
    predictions,
    context_used: input.context !== undefined,
    model_used: model.length > 0 ? modelUsed(modelFor(services.llm, 'query-prediction')) : 'extractive',
    sources_failed: [...failed],
    recent_searches_used: recent,
  };
}
