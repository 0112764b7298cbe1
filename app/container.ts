/**
 * The DI container's registrations: every shared service under its explicit
 * token (app/tokens.ts), built lazily and once. This and create-quarry.ts are
 * the only files that touch tsyringe; services and plugins receive their
 * dependencies as constructor or setup() arguments.
 */
import { join } from 'node:path';
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { LoadedEngine } from '../core/engine.js';
import { FeatureRegistry } from '../core/features.js';
import { OutboundClient } from '../core/http/outbound-client.js';
import type { Logger } from '../core/logger.js';
import { CapabilityRegistry } from '../core/registry.js';
import type { Stores } from '../core/stores/stores.js';
import { BrowserPool } from '../services/browser/browser-pool.js';
import { Discovery } from '../services/discover/discovery.js';
import { EngineHealth, MemoryEngineHealthStore } from '../services/engines/engine-health.js';
import { RedisEngineHealthStore } from '../services/engines/engine-health-redis.js';
import { EngineService } from '../services/engines/engine-service.js';
import { ExtractionPool } from '../services/extract/extraction-pool.js';
import { pooledBatchChunker } from '../services/chunking/lead.js';
import type { BullJobBackend } from '../services/jobs/bullmq/bullmq-backend.js';
import { EmbeddedJobBackend } from '../services/jobs/embedded/embedded-backend.js';
import { EmbeddedJobStore } from '../services/jobs/embedded/embedded-job-store.js';
import { JobService } from '../services/jobs/job-service.js';
import type { JobBackend } from '../services/jobs/types.js';
import { createLlmTiers } from '../services/llm/registry.js';
import { outboundLinkPolicy } from '../services/markdown/link-policy.js';
import { ExtractionStats } from '../services/metrics/extraction-stats.js';
import { Metrics } from '../services/metrics/metrics.js';
import { ModelServices } from '../services/models/model-services.js';
import { Scraper, type ExtractFn } from '../services/scrape/scraper.js';
import { SearchHistory } from '../services/search-history/search-history.js';
import { PageIndexer } from '../services/semantic/page-indexer.js';
import { SemanticServices } from '../services/semantic/semantic-services.js';
import { AnswerCache } from '../services/web-search/answer-cache.js';
import { WebSearch } from '../services/web-search/web-search.js';
import { WEBHOOK_LANE, WebhookDeliveries } from '../services/webhooks/webhook-deliveries.js';
import { MONITOR_LANE, type QuarryConfig } from './config.js';
import { createQuarryEventBus, type QuarryEventBus } from './events.js';
import { TOKENS } from './tokens.js';

export interface ResolvedSecrets {
  webhookSecret: string;
}

/**
 * Modules imported only when the configuration uses them (importing BullMQ is a good part of a start without Redis).
 */
export interface OnDemandModules {
  BullJobBackend?: typeof BullJobBackend;
}

export function registerServices(
  c: DependencyContainer,
  config: QuarryConfig,
  logger: Logger,
  stores: Stores,
  engines: LoadedEngine[],
  secrets: ResolvedSecrets,
  onDemand: OnDemandModules = {},
): void {
  const cached = <T>(factory: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory<T>(factory) });
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Logger, { useValue: logger });
  c.register(TOKENS.Stores, { useValue: stores });
  c.register(
    TOKENS.Events,
    cached(() => createQuarryEventBus()),
  );
  c.register(
    TOKENS.Metrics,
    cached(() => new Metrics()),
  );
  c.register(
    TOKENS.Features,
    cached(() => new FeatureRegistry()),
  );
  c.register(
    TOKENS.Registry,
    cached(() => new CapabilityRegistry()),
  );
  c.register(
    TOKENS.EngineHealth,
    cached(
      () =>
        new EngineHealth(
          stores.redis ? new RedisEngineHealthStore(stores.redis) : new MemoryEngineHealthStore(),
          logger.child({ component: 'engine-health' }),
        ),
    ),
  );
  c.register(
    TOKENS.Outbound,
    // robots.txt is read in the worker pool, never on the event loop.
    cached(
      (r) =>
        new OutboundClient(
          { ...config.outbound },
          logger.child({ component: 'outbound' }),
          r.resolve(TOKENS.ExtractionPool),
        ),
    ),
  );
  c.register(
    TOKENS.Engines,
    cached(
      (r) =>
        new EngineService(
          engines,
          config,
          r.resolve(TOKENS.Outbound),
          r.resolve(TOKENS.ExtractionPool),
          r.resolve(TOKENS.EngineHealth),
          logger.child({ component: 'engines' }),
        ),
    ),
  );
  c.register(
    TOKENS.ExtractionPool,
    cached(
      () =>
        new ExtractionPool({
          threads: config.pools.extractThreads,
          heapMb: config.pools.extractHeapMb,
          maxQueue: config.pools.maxQueue,
          taskTimeoutMs: config.pools.taskTimeoutMs,
        }),
    ),
  );
  c.register(
    TOKENS.BrowserPool,
    cached((r) => {
      const outbound = r.resolve<OutboundClient>(TOKENS.Outbound);
      // An explicit path goes to the pool as it is: a wrong one must not be replaced by another browser found
      // elsewhere.
      const executablePath = config.browser.executablePath;
      return new BrowserPool(
        {
          ...(executablePath ? { executablePath } : {}),
          maxConcurrentPages: config.browser.maxConcurrentPages,
          recycleAfterPages: config.browser.recycleAfterPages,
          userAgent: config.outbound.userAgent,
        },
        // Addresses on every request; robots.txt before each main-frame navigation and redirect hop is sent.
        {
          checkUrl: (url: string) => outbound.checkUrl(url),
          checkNavigation: (url: string, signal: AbortSignal) => outbound.checkRobots(url, signal),
        },
        logger.child({ component: 'browser' }),
      );
    }),
  );
  c.register(
    TOKENS.ExtractionStats,
    cached(() => new ExtractionStats()),
  );
  c.register(
    TOKENS.Extract,
    cached((r): ExtractFn => {
      const pool = r.resolve<ExtractionPool>(TOKENS.ExtractionPool);
      const events = r.resolve<QuarryEventBus>(TOKENS.Events);
      // Every successful extraction also feeds the local page index (through the event bus).
      const stats = r.resolve<ExtractionStats>(TOKENS.ExtractionStats);
      return async (content, url, options, signal) => {
        const started = performance.now();
        const { allowPrivateNetwork, allowHosts } = config.outbound;
        const result = await pool.extract(
          content,
          url,
          { ...options, addressPolicy: { allowPrivateNetwork, allowHosts } },
          signal,
        );
        stats.record(result.success, result.failureReason, performance.now() - started);
        if (result.success) {
          events.emit('page.extracted', {
            url: result.url,
            title: result.title,
            text: result.text,
            publishedDate: result.metadata.publishedDate,
            author: result.metadata.author,
          });
        }
        return result;
      };
    }),
  );
  c.register(
    TOKENS.Scraper,
    cached(
      (r) =>
        new Scraper(
          {
            fetcher: r.resolve(TOKENS.Outbound),
            renderer: r.resolve(TOKENS.BrowserPool),
            extract: r.resolve(TOKENS.Extract),
            parsing: r.resolve(TOKENS.ExtractionPool),
            cache: stores.cache,
            logger: logger.child({ component: 'scraper' }),
          },
          {
            concurrency: config.search.maxScrapeConcurrency,
            allowExecuteJavascript: config.browser.allowExecuteJavascript,
          },
        ),
    ),
  );
  c.register(
    TOKENS.Discovery,
    cached(
      (r) => new Discovery(r.resolve(TOKENS.Outbound), r.resolve(TOKENS.ExtractionPool), config.outbound.respectRobots),
    ),
  );
  c.register(
    TOKENS.WebSearch,
    cached((r) => {
      const metrics = r.resolve<Metrics>(TOKENS.Metrics);
      return new WebSearch({
        engines: r.resolve(TOKENS.Engines),
        scraper: r.resolve(TOKENS.Scraper),
        cache: new AnswerCache(stores.cache, 'search', (hit) => metrics.cacheLookup('search', hit)),
        metaCache: new AnswerCache(stores.cache, 'metasearch', (hit) => metrics.cacheLookup('metasearch', hit)),
        defaultEngines: config.search.defaultEngines,
        linkPolicy: outboundLinkPolicy(config.outbound),
      });
    }),
  );
  c.register(
    TOKENS.Llm,
    cached(() => createLlmTiers(config.llm, logger)),
  );
  c.register(
    TOKENS.Semantic,
    cached(() => new SemanticServices(config, logger)),
  );
  c.register(
    TOKENS.Models,
    cached(
      () => new ModelServices({ ...config.models, dataDir: config.dataDir }, logger.child({ component: 'models' })),
    ),
  );
  c.register(
    TOKENS.PageIndexer,
    cached(
      (r) =>
        new PageIndexer(
          r.resolve(TOKENS.Events),
          r.resolve(TOKENS.Semantic),
          logger.child({ component: 'page-indexer' }),
          pooledBatchChunker(r.resolve<ExtractionPool>(TOKENS.ExtractionPool)),
          // The instance's own folder, also when the index directory is shared: the journal holds this process's pages.
          { journalDir: join(config.dataDir, 'page-index-journal'), flushMs: config.vectorIndex.batchWaitMs },
        ),
    ),
  );
  c.register(
    TOKENS.SearchHistory,
    cached(() => new SearchHistory(stores.cache, logger.child({ component: 'search-history' }))),
  );
  c.register(
    TOKENS.Jobs,
    cached(
      () =>
        new JobService(
          jobBackend(config, stores, logger.child({ component: 'jobs' }), onDemand),
          logger.child({ component: 'jobs' }),
          jobServiceOptions(config),
        ),
    ),
  );
  c.register(
    TOKENS.Webhooks,
    cached((r) => {
      const outbound = r.resolve<OutboundClient>(TOKENS.Outbound);
      const { maxAttempts, timeoutMs, backoffBaseMs, backoffMaxMs } = config.webhooks;
      return new WebhookDeliveries(
        r.resolve(TOKENS.Jobs),
        (request) => outbound.fetch(request),
        {
          secret: secrets.webhookSecret,
          maxAttempts,
          timeoutMs,
          backoff: { baseMs: backoffBaseMs, maxMs: backoffMaxMs },
        },
        logger.child({ component: 'webhooks' }),
        (url) => outbound.checkUrl(url),
      );
    }),
  );
}

/** BullMQ when the state is shared on Redis, else the embedded durable queue under the data directory. */
function jobBackend(config: QuarryConfig, stores: Stores, logger: Logger, onDemand: OnDemandModules): JobBackend {
  const keepFinishedMs = config.jobs.keepFinishedHours * 3600_000;
  if (stores.redis && stores.redisUrl) {
    if (!onDemand.BullJobBackend)
      throw new Error('jobs on Redis need the BullMQ backend module (createQuarry imports it when redisUrl is set)');
    return new onDemand.BullJobBackend({
      redisUrl: stores.redisUrl,
      redis: stores.redis,
      lockMs: config.jobs.lockMs,
      stalledIntervalMs: config.jobs.stalledIntervalMs,
      // Above the job service's own bound, so a job given up is failed by the service (and its webhook sent).
      maxStalledCount: config.jobs.maxInterruptions + 2,
      keepFinishedSeconds: Math.ceil(keepFinishedMs / 1000),
      logger,
    });
  }
  return new EmbeddedJobBackend(new EmbeddedJobStore(stores.records, keepFinishedMs), logger);
}

function jobServiceOptions(config: QuarryConfig) {
  return {
    concurrency: config.jobs.concurrency,
    laneConcurrency: { [WEBHOOK_LANE]: config.webhooks.concurrency, [MONITOR_LANE]: config.monitor.concurrency },
    maxInterruptions: config.jobs.maxInterruptions,
  };
}
