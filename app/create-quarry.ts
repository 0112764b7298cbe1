/**
 * The composition root: the only file that touches the DI container. It
 * registers the core services under explicit tokens, loads the engines and
 * area plugins, and hands plugins their dependencies as plain arguments.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BrowserPool } from '../services/browser/browser-pool.js';
import type { AnyCapability } from '../core/capability.js';
import { loadConfig, type ConfigInput, type QuarryConfig } from '../core/config.js';
import { EngineHealth } from '../services/engines/engine-health.js';
import { EngineService, type LoadedEngine } from '../services/engines/engine-service.js';
import { createEventBus } from '../core/events.js';
import { FeatureRegistry } from '../core/features.js';
import { OutboundClient } from '../core/http/outbound-client.js';
import { JobRunner } from '../services/jobs/job-runner.js';
import { JobStore } from '../services/jobs/job-store.js';
import { createLlmTiers, type LlmTiers } from '../services/llm/registry.js';
import { createLogger, type Logger } from '../core/logger.js';
import { ExtractionStats } from '../services/metrics/extraction-stats.js';
import { Metrics } from '../services/metrics/metrics.js';
import type { JobHandler, PluginServices } from '../core/plugin.js';
import { loadAllEngines } from '../services/engines/engine-sources.js';
import { loadAreaFolder, pluginFolders, type LoadedArea } from '../core/plugins/plugin-loader.js';
import { CODE_ROOT } from '../core/paths.js';
import { ExtractionPool } from '../services/extract/extraction-pool.js';
import { CapabilityRegistry } from '../core/registry.js';
import { Scraper, type ExtractFn } from '../services/scrape/scraper.js';
import { PageIndexer } from '../services/semantic/page-indexer.js';
import { SemanticServices } from '../services/semantic/semantic-services.js';
import { loadOrCreateSecret } from '../core/secrets.js';
import { createStores, type Stores } from '../core/stores/stores.js';
import { TOKENS } from './tokens.js';
import { WebhookSender } from '../services/webhooks/webhook-sender.js';

export interface QuarryApp {
  config: QuarryConfig;
  logger: Logger;
  registry: CapabilityRegistry;
  services: PluginServices;
  engines: EngineService;
  /** Stops background work, closes pools, the browser and the stores. */
  close(): Promise<void>;
}

export interface CreateQuarryOptions {
  /** Config layered over file and environment (tests, CLI flags). */
  overrides?: ConfigInput;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Extra engine folders (third-party engines). */
  engineDirs?: string[];
}

function registerCore(c: DependencyContainer, config: QuarryConfig, logger: Logger, stores: Stores, engines: LoadedEngine[]): void {
  const cached = <T>(factory: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory<T>(factory) });
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Logger, { useValue: logger });
  c.register(TOKENS.Stores, { useValue: stores });
  c.register(TOKENS.Events, cached(() => createEventBus()));
  c.register(TOKENS.Metrics, cached(() => new Metrics()));
  c.register(TOKENS.Features, cached(() => new FeatureRegistry()));
  c.register(TOKENS.Registry, cached(() => new CapabilityRegistry()));
  c.register(TOKENS.EngineHealth, cached(() => new EngineHealth()));
  c.register(
    TOKENS.Outbound,
    cached(() => new OutboundClient({ ...config.outbound }, logger.child({ component: 'outbound' }))),
  );
  c.register(
    TOKENS.Engines,
    cached((r) => new EngineService(engines, config, r.resolve(TOKENS.Outbound), r.resolve(TOKENS.EngineHealth), logger.child({ component: 'engines' }))),
  );
  c.register(TOKENS.ExtractionPool, cached(() => new ExtractionPool({ threads: config.pools.extractThreads, maxQueue: config.pools.maxQueue })));
  c.register(
    TOKENS.BrowserPool,
    cached((r) => {
      const outbound = r.resolve<OutboundClient>(TOKENS.Outbound);
      const executablePath = BrowserPool.findChromium(config.browser.executablePath ?? undefined);
      return new BrowserPool(
        {
          ...(executablePath ? { executablePath } : {}),
          maxConcurrentPages: config.browser.maxConcurrentPages,
          recycleAfterPages: config.browser.recycleAfterPages,
          userAgent: config.outbound.userAgent,
        },
        { checkUrl: (url: string) => outbound.checkUrl(url) },
        logger.child({ component: 'browser' }),
      );
    }),
  );
  c.register(TOKENS.ExtractionStats, cached(() => new ExtractionStats()));
  c.register(
    TOKENS.Extract,
    cached((r): ExtractFn => {
      const pool = r.resolve<ExtractionPool>(TOKENS.ExtractionPool);
      const events = r.resolve<ReturnType<typeof createEventBus>>(TOKENS.Events);
      // Every successful extraction also feeds the local page index (through the event bus).
      const stats = r.resolve<ExtractionStats>(TOKENS.ExtractionStats);
      return async (html, url, options, signal) => {
        const started = performance.now();
        const result = await pool.extract(html, url, options, signal);
        stats.record(result.success, result.failureReason, performance.now() - started);
        if (result.success) {
          events.emit('page.extracted', { url: result.url, title: result.title, text: result.text, publishedDate: result.metadata.publishedDate, author: result.metadata.author });
        }
        return result;
      };
    }),
  );
  c.register(
    TOKENS.Scraper,
    cached(
      (r) =>
        new Scraper(r.resolve(TOKENS.Outbound), r.resolve(TOKENS.Extract), r.resolve(TOKENS.BrowserPool), logger.child({ component: 'scraper' }), {
          concurrency: config.search.maxScrapeConcurrency,
        }),
    ),
  );
  c.register(TOKENS.Llm, cached(() => createLlmTiers(config.llm, logger)));
  c.register(TOKENS.Semantic, cached(() => new SemanticServices(config, logger)));
  c.register(
    TOKENS.PageIndexer,
    cached((r) => new PageIndexer(r.resolve(TOKENS.Events), r.resolve(TOKENS.Semantic), logger.child({ component: 'page-indexer' }))),
  );
  c.register(TOKENS.JobStore, cached((r) => new JobStore(stores.records, r.resolve(TOKENS.Events), logger.child({ component: 'jobs' }))));
  c.register(
    TOKENS.Webhooks,
    cached((r) => {
      const outbound = r.resolve<OutboundClient>(TOKENS.Outbound);
      const secret = config.jobs.webhookSecret ?? loadOrCreateSecret(config.dataDir, 'webhook-secret').value;
      return new WebhookSender((req) => outbound.fetch(req), { secret, maxAttempts: 5, backoffMs: [1000, 5000, 30_000, 120_000] }, logger.child({ component: 'webhooks' }));
    }),
  );
}

function describeFeatures(
  features: FeatureRegistry,
  config: QuarryConfig,
  services: { browser: BrowserPool; engines: EngineService; stores: Stores; llm: LlmTiers; semantic: SemanticServices; indexer: PageIndexer },
): void {
  features.set('browser', () => {
    const path = BrowserPool.findChromium(config.browser.executablePath ?? undefined);
    return path
      ? { available: true, detail: `Chromium at ${path}`, info: { executablePath: path, ...services.browser.stats() } }
      : { available: false, detail: 'Chromium not found: install it (Debian/Ubuntu: apt-get install chromium) or set QUARRY_CHROMIUM_PATH' };
  });
  features.set('engines', () => {
    const ids = services.engines.ids();
    const enabled = ids.filter((id) => services.engines.disabledReason(id) === null);
    return { available: enabled.length > 0, detail: `${enabled.length} of ${ids.length} engines enabled`, info: { enabled, disabled: ids.filter((id) => !enabled.includes(id)) } };
  });
  features.set('storage', {
    available: true,
    detail: services.stores.backend === 'redis' ? 'shared state on Redis' : `cache in memory, durable records in SQLite under ${config.dataDir}`,
    info: { backend: services.stores.backend },
  });
  const llm = services.llm.describe();
  features.set(
    'llm',
    llm.configured
      ? {
          available: true,
          detail: `fast: ${llm.fast?.provider} ${llm.fast?.model}; quality: ${llm.quality?.provider} ${llm.quality?.model}`,
          info: { ...llm },
        }
      : { available: false, detail: 'no LLM provider configured: LLM-backed features use their extractive paths (model_used "extractive")' },
  );
  features.set('embeddings', () => services.semantic.describeEmbeddings());
  features.set('page_index', () =>
    config.vectorIndex.enabled
      ? {
          available: true,
          detail: `LanceDB under ${join(config.dataDir, 'page-index')}, retention ${config.vectorIndex.retentionDays || 'unlimited'} days`,
          info: { ...services.indexer.stats(), maxChunks: config.vectorIndex.maxChunks },
        }
      : { available: false, detail: 'disabled in the config (vectorIndex.enabled)' },
  );
  features.set('scraping', { available: true, detail: 'static pages through crawlee and the outbound policy; extraction in the worker pool' });
  features.set('javascript_rendering', () => ({
    available: services.browser.available(),
    detail: services.browser.available() ? 'headless Chromium through Playwright' : 'needs Chromium (see browser)',
  }));
}

export async function createQuarry(options: CreateQuarryOptions = {}): Promise<QuarryApp> {
  const { config } = loadConfig({ ...(options.env ? { env: options.env } : {}), ...(options.overrides ? { overrides: options.overrides } : {}) });
  const logger = options.logger ?? createLogger(config.logLevel);
  const loadedEngines = await loadAllEngines(config, process.cwd(), options.engineDirs ?? []);
  const stores = await createStores({ dataDir: config.dataDir, redisUrl: config.redisUrl, logger: logger.child({ component: 'stores' }) });

  const c = rootContainer.createChildContainer();
  registerCore(c, config, logger, stores, loadedEngines);

  const registry = c.resolve<CapabilityRegistry>(TOKENS.Registry);
  const metrics = c.resolve<Metrics>(TOKENS.Metrics);
  const engines = c.resolve<EngineService>(TOKENS.Engines);
  const browser = c.resolve<BrowserPool>(TOKENS.BrowserPool);
  const extraction = c.resolve<ExtractionPool>(TOKENS.ExtractionPool);
  const events = c.resolve<ReturnType<typeof createEventBus>>(TOKENS.Events);
  const features = c.resolve<FeatureRegistry>(TOKENS.Features);
  const jobStore = c.resolve<JobStore>(TOKENS.JobStore);
  const handlers = new Map<string, JobHandler>();
  const jobs = new JobRunner(jobStore, handlers, c.resolve(TOKENS.Webhooks), logger.child({ component: 'jobs' }), { concurrency: config.jobs.concurrency });

  registry.onCall((call) => {
    metrics.observeCall(call.id, call.host, call.status, call.durationMs);
    events.emit('capability.called', call);
  });
  engines.onCall((engine, outcome, durationMs) => metrics.engineRequest(engine, outcome, durationMs));
  const llm = c.resolve<LlmTiers>(TOKENS.Llm);
  const semantic = c.resolve<SemanticServices>(TOKENS.Semantic);
  const indexer = c.resolve<PageIndexer>(TOKENS.PageIndexer);
  if (config.vectorIndex.enabled) indexer.start();
  describeFeatures(features, config, { browser, engines, stores, llm, semantic, indexer });

  const services: PluginServices = {
    config,
    logger,
    engines,
    scraper: c.resolve(TOKENS.Scraper),
    outbound: c.resolve(TOKENS.Outbound),
    features,
    stores,
    jobs,
    jobStore,
    metrics,
    events,
    llm,
    semantic,
    browser,
    extract: c.resolve(TOKENS.Extract),
    runtimeStats: () => ({
      extraction: c.resolve<ExtractionStats>(TOKENS.ExtractionStats).figures(),
      extraction_pool: extraction.stats(),
      browser: browser.stats(),
      page_indexer: indexer.stats(),
    }),
  };

  const areas: LoadedArea[] = await Promise.all(pluginFolders(join(CODE_ROOT, 'plugins')).map((dir) => loadAreaFolder(dir)));
  for (const area of areas) {
    const capabilities: AnyCapability[] = await area.plugin.setup(services);
    const declared = [...area.manifest.capabilities].sort();
    const given = capabilities.map((cap) => cap.id).sort();
    if (JSON.stringify(declared) !== JSON.stringify(given)) {
      throw new Error(`plugin "${area.manifest.id}": manifest lists capabilities [${declared.join(', ')}] but setup() returned [${given.join(', ')}]`);
    }
    for (const capability of capabilities) registry.register(capability, area.manifest.id);
    for (const [kind, handler] of Object.entries(area.plugin.jobHandlers?.(services) ?? {})) handlers.set(kind, handler);
  }
  const resumed = await jobs.resumePending();
  if (resumed > 0) logger.info({ resumed }, 'resumed jobs accepted before the last shutdown');
  logger.info(
    { engines: engines.ids().length, capabilities: registry.list().length, storage: stores.backend, browser: browser.available() },
    'quarry core ready',
  );

  let closed = false;
  return {
    config,
    logger,
    registry,
    services,
    engines,
    async close() {
      if (closed) return;
      closed = true;
      await jobs.close();
      await indexer.stop();
      await semantic.close();
      await Promise.allSettled([extraction.close(), browser.close(), c.resolve<OutboundClient>(TOKENS.Outbound).close()]);
      await stores.close();
      c.clearInstances();
    },
  };
}
