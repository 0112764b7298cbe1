/**
 * Configuration of the two model tiers: `fast` (cheap calls: query rewriting,
 * classification) and `quality` (synthesis). Either may be absent; with
 * neither, features fall back to extractive paths.
 */
import { z } from 'zod';
import { ANTHROPIC_DEFAULT_BASE_URL } from './anthropic.js';
import { OPENAI_DEFAULT_BASE_URL } from './openai-compatible.js';
import type { LlmProvider } from './types.js';

export const LLM_PROVIDERS = ['openai-compatible', 'anthropic'] as const satisfies readonly LlmProvider[];

const DEFAULT_BASE_URLS: Record<LlmProvider, string> = {
  'openai-compatible': OPENAI_DEFAULT_BASE_URL,
  anthropic: ANTHROPIC_DEFAULT_BASE_URL,
};

export const llmTierConfigSchema = z
  .object({
    /** The API the model is reached through: OpenAI-compatible (OpenAI, Ollama, vLLM, …) or Anthropic. */
    provider: z.enum(LLM_PROVIDERS).default('openai-compatible'),
    /** Defaults to the provider's public API; point it at Ollama, vLLM, a proxy... */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The provider's API key (none for a local server that needs none). */
    apiKey: z.string().min(1).optional(),
    /** The model name, as the provider knows it. */
    model: z.string().min(1),
    /** Longest wait for one model call. */
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    /** Retries of a model call that failed. */
    maxRetries: z.number().int().min(0).max(10).default(2),
  })
  .strict()
  .transform((tier) => ({ ...tier, baseUrl: tier.baseUrl ?? DEFAULT_BASE_URLS[tier.provider] }));

export const llmConfigSchema = z
  .object({
    fast: llmTierConfigSchema.optional(),
    /** Used for synthesis; when absent the fast tier serves both. */
    quality: llmTierConfigSchema.optional(),
  })
  .strict()
  .prefault({});

export type LlmTierConfig = z.infer<typeof llmTierConfigSchema>;
export type LlmConfig = z.infer<typeof llmConfigSchema>;
export type LlmConfigInput = z.input<typeof llmConfigSchema>;

type Env = Record<string, string | undefined>;
type TierOverride = Partial<Record<'provider' | 'baseUrl' | 'apiKey' | 'model', string>>;

export interface LlmEnvOverrides {
  fast?: TierOverride;
  quality?: TierOverride;
}

/**
 * The `llm` layer from environment variables, to merge over the config file:
 * QUARRY_LLM_{PROVIDER,BASE_URL,API_KEY,MODEL} for the fast tier and
 * QUARRY_LLM_QUALITY_{...} for the quality tier. A quality variable left
 * unset takes the fast tier's value (base URL and key only when both tiers use
 * the same provider). OPENAI_API_KEY / ANTHROPIC_API_KEY stand in for a
 * missing key, but only for a tier the environment configures (a key lying
 * around in a shell never switches a model on by itself) and not when the
 * environment points that tier at another host.
 */
export function llmEnvOverrides(env: Env): LlmEnvOverrides {
  const read = (name: string): string | undefined =>
    env[name] === undefined || env[name] === '' ? undefined : env[name];
  const fast = pickDefined({
    provider: read('QUARRY_LLM_PROVIDER'),
    baseUrl: read('QUARRY_LLM_BASE_URL'),
    apiKey: read('QUARRY_LLM_API_KEY'),
    model: read('QUARRY_LLM_MODEL'),
  });
  const qualityOwn = pickDefined({
    provider: read('QUARRY_LLM_QUALITY_PROVIDER'),
    baseUrl: read('QUARRY_LLM_QUALITY_BASE_URL'),
    apiKey: read('QUARRY_LLM_QUALITY_API_KEY'),
    model: read('QUARRY_LLM_QUALITY_MODEL'),
  });

  const out: LlmEnvOverrides = {};
  if (Object.keys(fast).length > 0) out.fast = withVendorKey(fast, env);
  if (Object.keys(qualityOwn).length > 0) {
    const fastProvider = fast.provider ?? 'openai-compatible';
    const sameProvider = (qualityOwn.provider ?? fastProvider) === fastProvider;
    const inherited = sameProvider ? fast : {};
    out.quality = withVendorKey({ ...inherited, ...qualityOwn }, env);
  }
  return out;
}

/** A vendor's own key variable, never sent to a base URL set here that belongs to someone else. */
function withVendorKey(tier: TierOverride, env: Env): TierOverride {
  if (tier.apiKey) return tier;
  const provider = tier.provider === 'anthropic' ? 'anthropic' : 'openai-compatible';
  const vendorKey = provider === 'anthropic' ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY;
  if (!vendorKey) return tier;
  if (tier.baseUrl !== undefined && !sameHost(tier.baseUrl, DEFAULT_BASE_URLS[provider])) return tier;
  return { ...tier, apiKey: vendorKey };
}

/** Whether two base URLs name the same host and port (a vendor key goes only to the vendor's own). */
export function sameHost(a: string, b: string): boolean {
  const host = (url: string): string | null => {
    try {
      return new URL(url).host;
    } catch {
      return null;
    }
  };
  return host(a) !== null && host(a) === host(b);
}

function pickDefined(values: TierOverride): TierOverride {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as TierOverride;
}
