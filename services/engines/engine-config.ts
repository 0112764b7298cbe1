/**
 * The "engines.<id>" section of the configuration: per-engine switches over
 * the manifest. Owned here because the engine service is what reads it.
 */
import { z } from 'zod';

export const engineOverridesSchema = z
  .object({
    enabled: z.boolean().optional(),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    apiKey: z.string().min(1).optional(),
    weight: z.number().positive().max(10).optional(),
    timeoutMs: z.number().int().min(100).max(60_000).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type EngineOverrides = z.infer<typeof engineOverridesSchema>;

export const enginesConfigSchema = z
  .record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'engine ids match ^[a-z][a-z0-9_]*$'), engineOverridesSchema)
  .default({});
