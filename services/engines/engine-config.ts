/**
 * The "engines.<id>" section of the configuration: per-engine switches over
 * the manifest. Owned here because the engine service is what reads it.
 */
import { z } from 'zod';

export const engineOverridesSchema = z
  .object({
    /** Switch the engine on or off; default: its manifest's choice. */
    enabled: z.boolean().optional(),
    /** Where the engine's requests go instead of its public site (a mirror, a self-hosted instance). */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The engine's API key, for engines that need one. */
    apiKey: z.string().min(1).optional(),
    /** How much the engine's results count when merged (default 1). */
    weight: z.number().positive().max(10).optional(),
    /** Longest wait for one answer of the engine. */
    timeoutMs: z.number().int().min(100).max(60_000).optional(),
    /** Engine-specific options (docs/engines.md). */
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type EngineOverrides = z.infer<typeof engineOverridesSchema>;

export const enginesConfigSchema = z
  .record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'engine ids match ^[a-z][a-z0-9_]*$'), engineOverridesSchema)
  .default({});
