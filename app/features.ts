/**
 * The installation's features as GET /api/v1/enhanced/features reports
 * them: what was found (browser, models, LLM, storage) and why something is
 * unavailable. Plugins add their own entries to the same registry. No
 * entry names a file-system path (data directory, browser, model folders):
 * callers with an API key need not learn the server's layout.
 */
import type { FeatureRegistry } from '../core/features.js';
import type { Stores } from '../core/stores/stores.js';
import { BrowserPool } from '../services/browser/browser-pool.js';
import type { EngineService } from '../services/engines/engine-service.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { PageIndexer } from '../services/semantic/page-indexer.js';
import type { SemanticServices } from '../services/semantic/semantic-services.js';
import type { ModelServices } from '../services/models/model-services.js';
import type { QuarryConfig } from './config.js';

export function describeFeatures(
  features: FeatureRegistry,
  config: QuarryConfig,
  services: {
    browser: BrowserPool;
    engines: EngineService;
    stores: Stores;
    llm: LlmTiers;
    semantic: SemanticServices;
    models: ModelServices;
    indexer: PageIndexer;
  },
): void {
  features.set('browser', () => {
    const path = BrowserPool.findChromium(config.browser.executablePath ?? undefined);
    return path
      ? { available: true, detail: 'Chromium found', info: { ...services.browser.stats() } }
      : {
          available: false,
          detail:
            'Chromium not found: install it (Debian/Ubuntu: apt-get install chromium) or set QUARRY_CHROMIUM_PATH',
        };
  });
  features.set('engines', () => {
    const ids = services.engines.ids();
    const enabled = ids.filter((id) => services.engines.disabledReason(id) === null);
    return {
      available: enabled.length > 0,
      detail: `${enabled.length} of ${ids.length} engines enabled`,
      info: { enabled, disabled: ids.filter((id) => !enabled.includes(id)) },
    };
  });
  features.set('storage', {
    available: true,
    detail:
      services.stores.backend === 'redis'
        ? 'shared state on Redis (cache, records, rate limit, engine health); jobs on BullMQ'
        : 'cache in memory, durable records and jobs in SQLite in the data directory',
    info: { backend: services.stores.backend, jobs: services.stores.backend === 'redis' ? 'bullmq' : 'embedded' },
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
      : {
          available: false,
          detail:
            'no LLM provider configured: LLM-backed features use their extractive paths (model_used "extractive")',
        },
  );
  features.set('embeddings', () => services.semantic.describeEmbeddings());
  for (const kind of ['entities', 'stance', 'reranker'] as const)
    features.set(`${kind}_model`, () => services.models.describe(kind));
  features.set('page_index', () =>
    config.vectorIndex.enabled
      ? {
          available: true,
          detail: `LanceDB in the data directory, retention ${config.vectorIndex.retentionDays || 'unlimited'} days`,
          info: { ...services.indexer.stats(), maxChunks: config.vectorIndex.maxChunks },
        }
      : { available: false, detail: 'disabled in the config (vectorIndex.enabled)' },
  );
  features.set('scraping', {
    available: true,
    detail:
      'static pages through the outbound policy, rendered pages after the same robots.txt check; extraction ' +
      'in the worker pool',
  });
  features.set('javascript_rendering', () => ({
    available: services.browser.available(),
    detail: services.browser.available() ? 'headless Chromium through Playwright' : 'needs Chromium (see browser)',
  }));
}
