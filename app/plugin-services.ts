/**
 * What an area plugin receives from the composition root: the shared
 * services, as plain arguments. Plugins import this type (and definePlugin)
 * and nothing else from app/.
 */
import type { FeatureRegistry } from '../core/features.js';
import type { OutboundRequest, OutboundResponse } from '../core/http/types.js';
import type { Logger } from '../core/logger.js';
import type { AreaPlugin } from '../core/plugin.js';
import type { Stores } from '../core/stores/stores.js';
import type { BrowserPool } from '../services/browser/browser-pool.js';
import type { EngineService } from '../services/engines/engine-service.js';
import type { ExtractionPool } from '../services/extract/extraction-pool.js';
import type { JobRunner } from '../services/jobs/job-runner.js';
import type { JobStore } from '../services/jobs/job-store.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { Metrics } from '../services/metrics/metrics.js';
import type { ExtractFn, Scraper } from '../services/scrape/scraper.js';
import type { SemanticServices } from '../services/semantic/semantic-services.js';
import type { QuarryConfig } from './config.js';
import type { QuarryEventBus } from './events.js';

export interface PluginServices {
  config: QuarryConfig;
  logger: Logger;
  engines: EngineService;
  scraper: Scraper;
  outbound: { fetch(request: OutboundRequest): Promise<OutboundResponse> };
  features: FeatureRegistry;
  /** Shared state: cache (may be volatile) and durable records. */
  stores: Stores;
  jobs: JobRunner;
  jobStore: JobStore;
  metrics: Metrics;
  events: QuarryEventBus;
  /** Language model tiers; both null when none is configured (features answer extractively). */
  llm: LlmTiers;
  /** Embedding model and local page index, created on first use. */
  semantic: SemanticServices;
  /** The shared headless browser (render, virtual scrolling); check available() before use. */
  browser: BrowserPool;
  /** Extraction in the worker pool (what the scraper uses; successful pages also feed the page index). */
  extract: ExtractFn;
  /** The worker pool's other parses of untrusted input: tables, chunking, links (each with the pool's deadline). */
  parsing: Pick<ExtractionPool, 'tables' | 'chunk' | 'links' | 'sitemap' | 'regex' | 'page'>;
  /** Live performance state (pools, browser) for the performance endpoint. */
  runtimeStats(): Record<string, unknown>;
}

export type { JobHandler } from '../core/plugin.js';

export type QuarryPlugin = AreaPlugin<PluginServices>;

export function definePlugin(plugin: QuarryPlugin): QuarryPlugin {
  return plugin;
}
