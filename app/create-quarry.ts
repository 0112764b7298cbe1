/**
 * The composition root: loads the configuration, the engines and the area
 * plugins, builds the shared services in the container (app/container.ts)
 * and hands plugins their dependencies as plain arguments. Hosts call
 * createQuarry() and translate what it returns; nothing below app/ knows
 * the container exists.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { container as rootContainer } from 'tsyringe';
import type { AnyCapability } from '../core/capability.js';
import type { FeatureRegistry } from '../core/features.js';
import type { OutboundClient } from '../core/http/outbound-client.js';
import { createLogger, type Logger } from '../core/logger.js';
import { CODE_ROOT } from '../core/paths.js';
import { loadAreaFolder, pluginFolders, type LoadedArea } from '../core/plugins/plugin-loader.js';
import type { CapabilityRegistry } from '../core/registry.js';
import { createStores } from '../core/stores/stores.js';
import type { BrowserPool } from '../services/browser/browser-pool.js';
import type { EngineService } from '../services/engines/engine-service.js';
import { loadAllEngines } from '../services/engines/engine-sources.js';
import type { ExtractionPool } from '../services/extract/extraction-pool.js';
import { HealthMonitor } from '../services/health/health-monitor.js';
import type { JobService } from '../services/jobs/job-service.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { ExtractionStats } from '../services/metrics/extraction-stats.js';
import type { Metrics } from '../services/metrics/metrics.js';
import { RuntimeStats } from '../services/metrics/runtime-stats.js';
import type { PageIndexer } from '../services/semantic/page-indexer.js';
import { pageIndexDir, type SemanticServices } from '../services/semantic/semantic-services.js';
import { bringStoredDataToCurrent } from '../services/storage-versions/stored-data.js';
import type { ModelServices } from '../services/models/model-services.js';
import { jobWebhookListener } from '../services/webhooks/job-webhooks.js';
import { WEBHOOK_DELIVERY_KIND, type WebhookDeliveries } from '../services/webhooks/webhook-deliveries.js';
import { loadConfig, type ConfigInput, type QuarryConfig } from './config.js';
import { registerServices } from './container.js';
import type { QuarryEventBus } from './events.js';
import { describeFeatures } from './features.js';
import { healthChecks } from './health-checks.js';
import { servicesFor, type PluginServices } from './plugin-services.js';
import { TOKENS } from './tokens.js';
import { resolveWebhookSecret } from './webhook-secret.js';

export interface QuarryApp {
  config: QuarryConfig;
  logger: Logger;
  registry: CapabilityRegistry;
  services: PluginServices;
  engines: EngineService;
  /** Health from real checks of the stores, Redis, the browser and the language models (GET /health). */
  health: HealthMonitor;
  /**
   * Stops taking jobs: running ones get graceMs to finish, then go back to
   * the queue (another instance, or the next start, runs them). Submitting
   * still works until close().
   */
  stopJobs(graceMs: number): Promise<void>;
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

export async function createQuarry(options: CreateQuarryOptions = {}): Promise<QuarryApp> {
  const { config } = loadConfig({
    ...(options.env ? { env: options.env } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  const logger = options.logger ?? createLogger(config.logLevel);
  const loadedEngines = await loadAllEngines(config, process.cwd(), options.engineDirs ?? []);
  // Before any owner opens its store: older data is brought forward, newer data stops start-up untouched.
  await bringStoredDataToCurrent({
    dataDir: config.dataDir,
    pageIndexDir: config.vectorIndex.enabled ? pageIndexDir(config) : null,
    redisUrl: config.redisUrl,
    logger: logger.child({ component: 'storage-versions' }),
  });
  const stores = await createStores({
    dataDir: config.dataDir,
    redisUrl: config.redisUrl,
    logger: logger.child({ component: 'stores' }),
  });
  const webhookSecret = await resolveWebhookSecret(config, stores, logger).catch(async (error: unknown) => {
    await stores.close();
    throw error;
  });

  const c = rootContainer.createChildContainer();
  // BullMQ only with Redis: the embedded queue needs none of it.
  const onDemand =
    stores.redis && stores.redisUrl
      ? { BullJobBackend: (await import('../services/jobs/bullmq/bullmq-backend.js')).BullJobBackend }
      : {};
  registerServices(c, config, logger, stores, loadedEngines, { webhookSecret }, onDemand);

  const registry = c.resolve<CapabilityRegistry>(TOKENS.Registry);
  const metrics = c.resolve<Metrics>(TOKENS.Metrics);
  const engines = c.resolve<EngineService>(TOKENS.Engines);
  const browser = c.resolve<BrowserPool>(TOKENS.BrowserPool);
  const extraction = c.resolve<ExtractionPool>(TOKENS.ExtractionPool);
  const events = c.resolve<QuarryEventBus>(TOKENS.Events);
  const features = c.resolve<FeatureRegistry>(TOKENS.Features);
  const jobs = c.resolve<JobService>(TOKENS.Jobs);
  const webhooks = c.resolve<WebhookDeliveries>(TOKENS.Webhooks);
  jobs.define(WEBHOOK_DELIVERY_KIND, webhooks.kind());
  jobs.onFinished(jobWebhookListener(webhooks));
  jobs.onFinished(webhooks.settledListener());

  registry.onCall((call) => {
    metrics.observeCall(call.id, call.host, call.status, call.durationMs);
    events.emit('capability.called', call);
  });
  engines.onCall((engine, outcome, durationMs) => metrics.engineRequest(engine, outcome, durationMs));
  const llm = c.resolve<LlmTiers>(TOKENS.Llm);
  const semantic = c.resolve<SemanticServices>(TOKENS.Semantic);
  const indexer = c.resolve<PageIndexer>(TOKENS.PageIndexer);
  const models = c.resolve<ModelServices>(TOKENS.Models);
  if (config.vectorIndex.enabled) indexer.start();
  describeFeatures(features, config, { browser, engines, stores, llm, semantic, models, indexer });
  const runtime = new RuntimeStats();
  runtime.add('extraction', () => c.resolve<ExtractionStats>(TOKENS.ExtractionStats).figures());
  runtime.add('extraction_pool', () => extraction.stats());
  runtime.add('browser', () => browser.stats());
  runtime.add('page_indexer', () => indexer.stats());

  const services: PluginServices = {
    config,
    logger,
    engines,
    scraper: c.resolve(TOKENS.Scraper),
    discovery: c.resolve(TOKENS.Discovery),
    webSearch: c.resolve(TOKENS.WebSearch),
    features,
    stores,
    jobs,
    webhooks,
    metrics,
    events,
    llm,
    semantic,
    models,
    searchHistory: c.resolve(TOKENS.SearchHistory),
    parsing: extraction,
    runtime,
  };

  const areas: LoadedArea[] = await Promise.all(
    pluginFolders(join(CODE_ROOT, 'plugins')).map((dir) => loadAreaFolder(dir)),
  );
  // Each area gets the services its manifest declares and no other, and builds what it alone owns (open).
  const opened: Array<{ area: LoadedArea; given: Partial<PluginServices>; own: unknown }> = [];
  const closeAreas = () => Promise.allSettled(opened.map(({ area, own }) => area.plugin.close?.(own)));
  try {
    for (const area of areas) {
      const given = servicesFor(area.manifest.id, services, area.manifest.uses, area.plugin.uses);
      opened.push({ area, given, own: await area.plugin.open?.(given) });
    }
  } catch (error) {
    await closeAreas();
    throw error;
  }
  for (const { area, given, own } of opened) {
    const capabilities: AnyCapability[] = await area.plugin.setup(given, own);
    const declared = [...area.manifest.capabilities].sort();
    const returned = capabilities.map((cap) => cap.id).sort();
    if (JSON.stringify(declared) !== JSON.stringify(returned)) {
      throw new Error(
        `plugin "${area.manifest.id}": manifest lists capabilities [${declared.join(', ')}] but setup() returned [${returned.join(', ')}]`,
      );
    }
    for (const capability of capabilities) registry.register(capability, area.manifest.id);
    for (const [kind, definition] of Object.entries(area.plugin.jobHandlers?.(given, own) ?? {}))
      jobs.define(kind, definition);
  }
  await jobs.start();
  const background: Array<{ stop(): Promise<void> }> = [];
  try {
    for (const { area, given, own } of opened) {
      const work = await area.plugin.start?.(given, own);
      if (work) background.push(work);
    }
  } catch (error) {
    await Promise.allSettled(background.map((work) => work.stop()));
    throw error;
  }
  logger.info(
    {
      engines: engines.ids().length,
      capabilities: registry.list().length,
      storage: stores.backend,
      jobs: jobs.backend,
      browser: browser.available(),
    },
    'quarry core ready',
  );

  let closed = false;
  return {
    config,
    logger,
    registry,
    services,
    engines,
    health: new HealthMonitor(healthChecks({ stores, browser, llm, models })),
    stopJobs: (graceMs) => jobs.stop(graceMs),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled(background.map((work) => work.stop()));
      await jobs.close();
      await closeAreas();
      await indexer.stop();
      await semantic.close();
      await models.close();
      await Promise.allSettled([
        extraction.close(),
        browser.close(),
        c.resolve<OutboundClient>(TOKENS.Outbound).close(),
      ]);
      await stores.close();
      c.clearInstances();
    },
  };
}
