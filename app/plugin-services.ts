/**
 * What an area plugin receives from the composition root: the shared
 * services it declares (its manifest's "uses"), as plain arguments. Plugins
 * import these types (and definePlugin) and nothing else from app/.
 */
import type { FeatureRegistry } from '../core/features.js';
import type { Logger } from '../core/logger.js';
import type { AreaPlugin } from '../core/plugin.js';
import type { Stores } from '../core/stores/stores.js';
import type { Discovery } from '../services/discover/discovery.js';
import type { EngineService } from '../services/engines/engine-service.js';
import type { Jobs } from '../services/jobs/types.js';
import type { ExtractionPool } from '../services/extract/extraction-pool.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { Metrics } from '../services/metrics/metrics.js';
import type { RuntimeStats } from '../services/metrics/runtime-stats.js';
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
  /**
   * The search service: every area's way to find (and read) pages for queries, cache metrics and link policy included.
   */
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
  /**
   * Optional task models (entity tagger, verify's stance, passage reranker), each null when not configured or not
   * loadable.
   */
  models: ModelServices;
  /** Each caller's recent searches (what next-search prediction falls back on). */
  searchHistory: SearchHistory;
  /**
   * The worker pool's other parses of untrusted input: tables, chunking, links, JSON Schema checks, line diffs (each
   * with the pool's deadline).
   */
  parsing: Pick<
    ExtractionPool,
    | 'tables'
    | 'chunk'
    | 'links'
    | 'regex'
    | 'regexTest'
    | 'page'
    | 'entities'
    | 'selectedContent'
    | 'jsonSchema'
    | 'lineDiff'
  >;
  /** Live performance state (pools, browser, page indexer; areas add their own) for the performance endpoint. */
  runtime: RuntimeStats;
}

/** A shared service's name, as a manifest's "uses" lists it. */
export type ServiceName = keyof PluginServices;

/** Every service name, for the start-up check and the schema test (plugin.schema.json lists the same). */
export const SERVICE_NAMES = [
  'config',
  'logger',
  'engines',
  'scraper',
  'discovery',
  'webSearch',
  'features',
  'stores',
  'jobs',
  'webhooks',
  'metrics',
  'events',
  'llm',
  'semantic',
  'models',
  'searchHistory',
  'parsing',
  'runtime',
] as const satisfies readonly ServiceName[];

// Fails to compile when a service is added to PluginServices but not to SERVICE_NAMES.
type Missing = Exclude<ServiceName, (typeof SERVICE_NAMES)[number]>;
const everyServiceNamed: [Missing] extends [never] ? true : Missing = true;
void everyServiceNamed;

/** What a plugin that declares the services K receives: those, and no other. */
export type ServicesOf<K extends ServiceName> = Pick<PluginServices, K>;

export type { JobHandler, JobKind } from '../core/plugin.js';

export interface QuarryPlugin<K extends ServiceName = ServiceName, Own = undefined>
  extends AreaPlugin<ServicesOf<K>, Own> {
  readonly uses: readonly K[];
}

/**
 * An area plugin. `uses` lists the services it needs (the same names as its
 * manifest's "uses"); setup and the other hooks are typed to receive only
 * those, so reaching for another is a compile error, and a list that differs
 * from the manifest stops start-up (core/plugins/plugin-loader.ts).
 */
export function definePlugin<const K extends ServiceName, Own = undefined>(
  plugin: QuarryPlugin<K, Own>,
): QuarryPlugin<K, Own> {
  return plugin;
}

/**
 * Where the services a plugin's code uses (definePlugin's `uses`) and those
 * its manifest declares differ: one line each, naming the plugin and the
 * service. Start-up stops on any.
 */
export function undeclaredServices(pluginId: string, declared: readonly string[], used: readonly string[]): string[] {
  return [
    ...used
      .filter((name) => !declared.includes(name))
      .map(
        (name) =>
          `plugin "${pluginId}" uses the service "${name}", which its manifest (plugin.json "uses") does not declare`,
      ),
    ...declared
      .filter((name) => !used.includes(name))
      .map(
        (name) =>
          `plugin "${pluginId}" declares the service "${name}" in its manifest, which its code (definePlugin's uses) does not list`,
      ),
  ];
}

/**
 * The object handed to one plugin: its declared services and no other key.
 * Start-up stops when the code's list and the manifest's differ, or a name is no service.
 */
export function servicesFor(
  pluginId: string,
  all: PluginServices,
  declared: readonly string[],
  used: readonly string[] | undefined,
): Partial<PluginServices> {
  const problems = undeclaredServices(pluginId, declared, used ?? []);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const known = new Set<string>(SERVICE_NAMES);
  const picked: Record<string, unknown> = {};
  for (const name of declared) {
    if (!known.has(name))
      throw new Error(
        `plugin "${pluginId}" declares the service "${name}", which does not exist (services: ${SERVICE_NAMES.join(', ')})`,
      );
    picked[name] = all[name as ServiceName];
  }
  return picked as Partial<PluginServices>;
}
