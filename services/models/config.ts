/**
 * The `models` config section: optional task models (entities, stance,
 * reranking), each loaded like the embedding model — a local folder, the
 * download cache, or a hub id when downloads are allowed. None configured (the
 * default): the offline tagger, the stance rules and no reranking.
 */
import { z } from 'zod';
import type { EnvReader } from '../../core/config.js';

const modelSchema = (batchSize: number) =>
  z
    .object({
      /**
       * Hub id (e.g. "Xenova/bert-base-NER") or a local folder with config.json, tokenizer.json, onnx/model.onnx; null:
       * offline default.
       */
      model: z.string().min(1).nullable().default(null),
      /** Worker processes for this model. */
      threads: z.number().int().min(1).max(8).default(1),
      /** Inputs per model call. */
      batchSize: z.number().int().min(1).max(256).default(batchSize),
    })
    .strict();

export const modelsConfigSchema = z
  .object({
    /** Download models the cache does not hold (needs internet, or a mirror in remoteHost). */
    allowRemote: z.boolean().default(true),
    /** The hub to download from (a mirror, or the tests' sandbox web). */
    remoteHost: z.url({ protocol: /^https?$/ }).default('https://huggingface.co/'),
    /** Download cache; default <dataDir>/models (shared with the embedding model). */
    cacheDir: z.string().min(1).nullable().default(null),
    /** Token classification (B-/I- PER, ORG, LOC, MISC) for the entity tagger. */
    entities: modelSchema(32).prefault({}),
    /** Natural-language inference (entailment / neutral / contradiction) for verify's stance. */
    stance: modelSchema(16).prefault({}),
    /** A cross-encoder scoring (query, passage) pairs; it reorders the best passages. */
    reranker: modelSchema(16)
      .extend({
        /** How many of the best passages (by the offline score) it reorders. */
        topK: z.number().int().min(2).max(200).default(30),
      })
      .prefault({}),
  })
  .strict()
  .prefault({});

export type ModelsConfig = z.infer<typeof modelsConfigSchema>;
export type ModelKind = 'entities' | 'stance' | 'reranker';

export function modelsEnvOverrides(env: EnvReader): Record<string, unknown> {
  return {
    allowRemote: env.bool('QUARRY_MODELS_ALLOW_REMOTE'),
    remoteHost: env.str('QUARRY_MODELS_REMOTE_HOST'),
    entities: { model: env.str('QUARRY_ENTITY_MODEL') },
    stance: { model: env.str('QUARRY_STANCE_MODEL') },
    reranker: { model: env.str('QUARRY_RERANKER_MODEL') },
  };
}
