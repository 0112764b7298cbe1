/**
 * The DI container's registrations: every shared service under its explicit
 * token (app/tokens.ts), built lazily and once. This and create-quarry.ts are
 * the only files that touch tsyringe; services and plugins receive their
 * dependencies as constructor or setup() arguments.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { LoadedEngine } from '../core/engine.js';
import { FeatureRegistry } from '../core/features.js';
import { OutboundClient } from '../core/http/outbound-client.js';
import type { Logger } from '../core/logger.js';
import { CapabilityRegistry } from '../core/registry.js';
import { loadOrCreateSecret } from '../core/secrets.js';
import type { Stores } from '../core/stores/stores.js';
import { BrowserPool } from '../services/browser/browser-pool.js';
import { EngineHealth } from '../services/engines/engine-health.js';
import { EngineService } from '../services/engines/engine-service.js';
import { ExtractionPool } from '../services/extract/extraction-pool.js';
import { JobStore } from '../services/jobs/job-store.js';
import { createLlmTiers } from '../services/llm/registry.js';
import { ExtractionStats } from '../services/metrics/extraction-stats.js';
import { Metrics } from '../services/metrics/metrics.js';
import { Scraper, type ExtractFn } from '../services/scrape/scraper.js';
import { PageIndexer } from '../services/semantic/page-indexer.js';
import { SemanticServices } from '../services/semantic/semantic-services.js';
import { WebhookSender } from '../services/webhooks/webhook-sender.js';
import type { QuarryConfig } from './config.js';
import { createQuarryEventBus, type QuarryEventBus } from './events.js';
import { TOKENS } from './tokens.js';

export function registerServices(c: DependencyContainer, config: QuarryConfig, logger: Logger, stores: Stores, engines: LoadedEngine[]): void {
  const cached = <T>(factory: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory<T>(factory) });
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Logger, { useValue: logger });
  c.register(TOKENS.Stores, { useValue: stores });
  c.register(TOKENS.Events, cached(() => createQuarryEventBus()));
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
  c.register(TOKENS.ExtractionPool, cached(() => new ExtractionPool({ threads: config.pools.extractThreads, maxQueue: config.pools.maxQueue, taskTimeoutMs: config.pools.taskTimeoutMs })));
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
      const events = r.resolve<QuarryEventBus>(TOKENS.Events);
      // Every successful extraction also feeds the local page index (through the event bus).
      const stats = r.resolve<ExtractionStats>(TOKENS.ExtractionStats);
      return async (html, url, options, signal) => {
        const started = performance.now();
        const { allowPrivateNetwork, allowHosts } = config.outbound;
        const result = await pool.extract(html, url, { ...options, addressPolicy: { allowPrivateNetwork, allowHosts } }, signal);
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
      const secret = config.jobs.webhookSecret ?? storedWebhookSecret(config.dataDir, logger);
      return new WebhookSender((req) => outbound.fetch(req), { secret, maxAttempts: 5, backoffMs: [1000, 5000, 30_000, 120_000] }, logger.child({ component: 'webhooks' }));
    }),
  );
}
/** The generated webhook secret; a file others could read is tightened to 0600 and reported. */
function storedWebhookSecret(dataDir: string, logger: Logger): string {
  const secret = loadOrCreateSecret(dataDir, 'webhook-secret');
  if (secret.exposedMode !== undefined) {
    logger.warn({ path: secret.path, mode: `0${secret.exposedMode.toString(8)}` }, 'the stored webhook secret was readable by other users; its mode is now 0600 — rotate it if others may have read it');
  }
  return secret.value;
}
