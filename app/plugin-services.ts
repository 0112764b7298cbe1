/**
 * What an area plugin receives from the composition root: the shared
 * services, as plain arguments. Plugins import this type (and definePlugin)
 * and nothing else from app/.
 */
import type { FeatureRegistry } from '../core/features.js';
import type { Logger } from '../core/logger.js';
import type { AreaPlugin } from '../core/plugin.js';
import type { Stores } from '../core/stores/stores.js';
import type { CredibilityService } from '../plugins/verify/credibility/credibility-service.js';
import type { Corpora } from '../plugins/rag/corpora/corpora.js';
import type { Discovery } from '../services/discover/discovery.js';
import type { EngineService } from '../services/engines/engine-service.js';
import type { KnowledgeService } from '../plugins/knowledge/service/knowledge-service.js';
import type { Jobs } from '../services/jobs/types.js';
import type { ExtractionPool } from '../services/extract/extraction-pool.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { Metrics } from '../services/metrics/metrics.js';
import type { ModelServices } from '../services/models/model-services.js';
import type { Scraper } from '../services/scrape/scraper.js';
import type { SearchHistory } from '../services/search-history/search-history.js';
import type { SemanticServices } from '../services/semantic/semantic-services.js';
import type { WebSearch } from '../services/web-search/web-search.js';
import type { WebhookDeliveries } from '../services/webhooks/webhook-deliveries.js';
import type { QuarryConfig } from './config.js';
import type { QuarryEventBus } from './events.js';

export interface PluginServices {
  config: QuarryConfig;
  logger: Logger;
  engines: EngineService;
  /**
   * The one page reader: every page an area reads (fetch or render, robots.txt
   * first for both, page cache, failure codes, scrolling, a page's links).
   */
  scraper: Scraper;
  /** URL discovery and the bounded site crawl (robots.txt, sitemaps, links). */
  discovery: Discovery;
  /** The search service: every area's way to find (and read) pages for queries, cache metrics and link policy included. */
  webSearch: WebSearch;
  features: FeatureRegistry;
  /** Shared state: cache (may be volatile) and durable records. */
  stores: Stores;
  /** Durable background jobs (embedded, or BullMQ on Redis): submit, read, cancel from any instance. */
  jobs: Jobs;
  /** Signed webhook delivery (Standard Webhooks) with retries and a delivery log. */
  webhooks: WebhookDeliveries;
  metrics: Metrics;
  events: QuarryEventBus;
  /** Language model tiers; both null when none is configured (features answer extractively). */
  llm: LlmTiers;
  /** Embedding model and local page index, created on first use. */
  semantic: SemanticServices;
  /** Optional task models (entity tagger, verify's stance, passage reranker), each null when not configured or not loadable. */
  models: ModelServices;
  /** RAG corpora in the embedded LanceDB under dataDir/corpora, opened on first use. */
  corpora: Corpora;
  /** Source credibility from published ratings and documented rules. */
  credibility: CredibilityService;
  /** The knowledge graph: extraction, the durable graph store and its reads. */
  knowledge: KnowledgeService;
  /** Each caller's recent searches (what next-search prediction falls back on). */
  searchHistory: SearchHistory;
  /** The worker pool's other parses of untrusted input: tables, chunking, links (each with the pool's deadline). */
  parsing: Pick<ExtractionPool, 'tables' | 'chunk' | 'links' | 'regex' | 'regexTest' | 'page'>;
  /** Live performance state (pools, browser) for the performance endpoint. */
  runtimeStats(): Record<string, unknown>;
}

export type { JobHandler, JobKind } from '../core/plugin.js';

export type QuarryPlugin = AreaPlugin<PluginServices>;

export function definePlugin(plugin: QuarryPlugin): QuarryPlugin {
  return plugin;
}
