/**
 * Builds the configured model tiers once at start. A tier left out of the
 * configuration borrows the other one; with neither, both are null and
 * features take their extractive paths (and report model_used "extractive").
 */
import type { Logger } from '../../core/logger.js';
import { AnthropicClient, ANTHROPIC_DEFAULT_BASE_URL } from './anthropic.js';
import { sameHost, type LlmConfig, type LlmTierConfig } from './config.js';
import type { LlmEndpointOptions } from './http-client.js';
import { OpenAiCompatibleClient, OPENAI_DEFAULT_BASE_URL } from './openai-compatible.js';
import type { LlmTransport } from './transport.js';
import type { LlmClient, LlmProvider } from './types.js';

export const EXTRACTIVE_MODEL = 'extractive';

export interface LlmTierDescription {
  provider: LlmProvider;
  model: string;
  /** Without any user:password part. */
  baseUrl: string;
}

export interface LlmTiersDescription {
  configured: boolean;
  fast?: LlmTierDescription;
  quality?: LlmTierDescription;
}

export interface LlmTiers {
  fast: LlmClient | null;
  quality: LlmClient | null;
  describe(): LlmTiersDescription;
}

export interface LlmTierOptions {
  /** Routes model requests (e.g. through the outbound policy); global fetch when absent. */
  transport?: LlmTransport;
}

export function createLlmTiers(config: LlmConfig | undefined, logger: Logger, options: LlmTierOptions = {}): LlmTiers {
  const fastConfig = config?.fast ?? config?.quality;
  const qualityConfig = config?.quality ?? config?.fast;
  const fast = fastConfig ? createClient(fastConfig, logger.child({ component: 'llm', tier: 'fast' }), options) : null;
  // One client when both tiers are the same configuration.
  const quality =
    qualityConfig === fastConfig
      ? fast
      : qualityConfig
        ? createClient(qualityConfig, logger.child({ component: 'llm', tier: 'quality' }), options)
        : null;

  const description: LlmTiersDescription = { configured: fast !== null || quality !== null };
  if (fastConfig) description.fast = describeTier(fastConfig);
  if (qualityConfig) description.quality = describeTier(qualityConfig);
  if (!description.configured)
    logger.debug('no language model configured: features that would use one answer extractively');

  return { fast, quality, describe: () => structuredClone(description) };
}

/** What a response reports in model_used: the model's name, or "extractive" when none answered. */
export function modelUsed(client: LlmClient | null | undefined): string {
  return client?.model ?? EXTRACTIVE_MODEL;
}

function createClient(tier: LlmTierConfig, logger: Logger, options: LlmTierOptions): LlmClient {
  const endpoint: LlmEndpointOptions = {
    model: tier.model,
    baseUrl: tier.baseUrl,
    timeoutMs: tier.timeoutMs,
    maxRetries: tier.maxRetries,
    logger,
  };
  if (tier.apiKey) endpoint.apiKey = tier.apiKey;
  if (options.transport) endpoint.transport = options.transport;
  const officialHost = tier.provider === 'anthropic' ? ANTHROPIC_DEFAULT_BASE_URL : OPENAI_DEFAULT_BASE_URL;
  if (!tier.apiKey && sameHost(tier.baseUrl, officialHost)) {
    logger.warn(
      { provider: tier.provider, model: tier.model },
      'no API key configured for the public API; calls will be refused',
    );
  }
  return tier.provider === 'anthropic' ? new AnthropicClient(endpoint) : new OpenAiCompatibleClient(endpoint);
}

function describeTier(tier: LlmTierConfig): LlmTierDescription {
  return { provider: tier.provider, model: tier.model, baseUrl: withoutCredentials(tier.baseUrl) };
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
