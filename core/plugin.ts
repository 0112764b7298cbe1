/**
 * The area plugin contract. An area plugin's entry module default-exports
 * definePlugin({ setup }); setup receives the core's services as plain
 * arguments (no container import, no decorators) and returns the
 * capabilities it contributes, which must match its manifest's list.
 */
import type { AnyCapability } from './capability.js';
import type { QuarryConfig } from './config.js';
import type { EngineService } from '../services/engines/engine-service.js';
import type { FeatureRegistry } from './features.js';
import type { OutboundRequest, OutboundResponse } from './http/types.js';
import type { Logger } from './logger.js';
import type { Scraper } from '../services/scrape/scraper.js';

export interface PluginServices {
  config: QuarryConfig;
  logger: Logger;
  engines: EngineService;
  scraper: Scraper;
  outbound: { fetch(request: OutboundRequest): Promise<OutboundResponse> };
  features: FeatureRegistry;
  /** Shared state: cache (may be volatile) and durable records. */
  stores: import('./stores/stores.js').Stores;
  jobs: import('../services/jobs/job-runner.js').JobRunner;
  jobStore: import('../services/jobs/job-store.js').JobStore;
  metrics: import('../services/metrics/metrics.js').Metrics;
  events: ReturnType<typeof import('./events.js').createEventBus>;
  /** Language model tiers; both null when none is configured (features answer extractively). */
  llm: import('../services/llm/registry.js').LlmTiers;
  /** Embedding model and local page index, created on first use. */
  semantic: import('../services/semantic/semantic-services.js').SemanticServices;
  /** The shared headless browser (render, virtual scrolling); check available() before use. */
  browser: import('../services/browser/browser-pool.js').BrowserPool;
  /** Extraction in the worker pool (what the scraper uses; successful pages also feed the page index). */
  extract: import('../services/scrape/scraper.js').ExtractFn;
  /** Live performance state (pools, browser) for the performance endpoint. */
  runtimeStats(): Record<string, unknown>;
}

export interface AreaPlugin {
  setup(services: PluginServices): AnyCapability[] | Promise<AnyCapability[]>;
  /** Job kinds the plugin runs in the background (async modes), by kind. */
  jobHandlers?(services: PluginServices): Record<string, JobHandler>;
}

export type JobHandler = (input: unknown, ctx: { signal: AbortSignal; progress(p: { progress: number; total?: number; message?: string }): void }) => Promise<unknown>;

export function definePlugin(plugin: AreaPlugin): AreaPlugin {
  return plugin;
}
