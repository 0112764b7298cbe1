/**
 * The enhanced area: search with extraction strategies, URL discovery, chunking, table extraction, installation
 * features and performance.
 */
import { ENHANCED_USES } from './uses.js';
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import { packageVersion } from '../../core/paths.js';
import { definePlugin } from '../../app/plugin-services.js';
import { chunkContentCapability } from './chunk-content.js';
import { discoverUrlsCapability } from './discover-urls.js';
import { extractTablesCapability } from './extract-tables.js';
import { registerOptionFeatures } from './option-features.js';
import { scrapeCapability } from './scrape.js';
import { enhancedSearchCapabilities, enhancedSearchJobHandlers } from './search.js';

const featureSchema = z.object({
  available: z.boolean(),
  detail: z.string(),
  info: z.record(z.string(), z.unknown()).optional(),
});

export default definePlugin({
  uses: ENHANCED_USES,
  jobHandlers: (services) => enhancedSearchJobHandlers(services),
  setup(services) {
    registerOptionFeatures(services);
    const features = defineCapability({
      id: 'enhanced.features',
      title: 'Installation features',
      description:
        'What this Quarry installation offers: browser rendering, models, LLM, storage, engines — each with ' +
        'whether it is available and why not.',
      input: z.strictObject({}),
      output: z.object({ features: z.record(z.string(), featureSchema), version: z.string() }),
      http: { method: 'GET', path: '/api/v1/enhanced/features' },
      mcpTool: 'enhanced_features',
      readOnly: true,
      toMarkdown: (out) =>
        Object.entries(out.features)
          .map(
            ([name, f]) =>
              `- **${escapeMarkdownText(name)}**: ${f.available ? 'available' : 'unavailable'} — ${escapeMarkdownText(f.detail)}`,
          )
          .join('\n'),
      async handler() {
        return { features: services.features.list(), version: packageVersion() };
      },
    });

    const performance = defineCapability({
      id: 'enhanced.performance',
      title: 'Performance figures',
      description:
        'Request counts, latency percentiles per capability, cache hit rate, engine error rates, and ' +
        'worker-pool and browser state.',
      input: z.strictObject({}),
      output: z.object({ metrics: z.record(z.string(), z.unknown()), runtime: z.record(z.string(), z.unknown()) }),
      http: { method: 'GET', path: '/api/v1/enhanced/performance' },
      mcpTool: 'enhanced_performance',
      readOnly: true,
      async handler() {
        const snapshot = (await services.metrics.snapshot()) as unknown as Record<string, unknown>;
        return { metrics: snapshot, runtime: services.runtime.snapshot() };
      },
    });

    return [
      features,
      performance,
      discoverUrlsCapability(services),
      chunkContentCapability(services),
      extractTablesCapability(services),
      ...enhancedSearchCapabilities(services),
      scrapeCapability(services),
    ];
  },
});
