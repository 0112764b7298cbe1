/**
 * Every enhanced option in the features registry (GET /enhanced/features),
 * each saying whether it works on this installation and, if not, why:
 * browser-backed options need Chromium, `llm` options a configured model,
 * the semantic ones the embedding model.
 */
import type { EnhancedServices } from './uses.js';
import { CHUNK_STRATEGIES } from '../../services/chunking/types.js';
import type { Feature } from '../../core/features.js';
import { TABLE_STRATEGIES } from '../../services/tables/types.js';
import { CACHE_MODES, WAIT_UNTIL } from './scrape/schema.js';
import { CONTENT_FILTERS, EXTRACTION_STRATEGIES } from './search/schemas.js';
import { modelFor } from '../../services/llm/model-choice.js';

type Need = 'nothing' | 'browser' | 'llm' | 'embeddings';

export function registerOptionFeatures(services: EnhancedServices): void {
  const check =
    (need: Need, what: string): (() => Feature) =>
    () => {
      switch (need) {
        case 'browser':
          return services.scraper.renderAvailable()
            ? { available: true, detail: `${what}: headless Chromium` }
            : {
                available: false,
                detail: `${what} needs Chromium: install it (Debian/Ubuntu: apt-get install chromium) or set QUARRY_CHROMIUM_PATH`,
              };
        case 'llm': {
          const model = modelFor(services.llm, 'page-extraction');
          return model
            ? { available: true, detail: `${what}: ${model.model}` }
            : {
                available: false,
                detail: `${what} needs a language model: configure llm.fast or llm.quality (docs/llm.md)`,
              };
        }
        case 'embeddings': {
          const model = services.semantic.describeEmbeddings();
          return { available: model.available, detail: `${what}: ${model.detail}` };
        }
        default:
          return { available: true, detail: what };
      }
    };
  const set = (name: string, need: Need, what: string): void =>
    services.features.set(`enhanced.${name}`, check(need, what));

  for (const strategy of EXTRACTION_STRATEGIES) {
    const need: Need = strategy === 'llm' ? 'llm' : strategy === 'cosine' ? 'embeddings' : 'nothing';
    set(`search.extraction_strategy.${strategy}`, need, `extraction strategy ${strategy}`);
  }
  for (const filter of CONTENT_FILTERS)
    set(`search.content_filter.${filter}`, filter === 'llm' ? 'llm' : 'nothing', `content filter ${filter}`);
  set('search.markdown_generation', 'nothing', 'markdown of the filtered content');
  set('search.adaptive_crawling', 'nothing', 'adaptive in-site crawling');
  set('search.link_analysis', 'nothing', 'link analysis');
  set('search.virtual_scrolling', 'browser', 'virtual scrolling');
  set('scrape.javascript_rendering', 'browser', 'JavaScript rendering');
  set('scrape.screenshot', 'browser', 'PNG screenshots');
  set('scrape.pdf', 'browser', 'pages printed to PDF');
  for (const mode of WAIT_UNTIL) set(`scrape.wait_until.${mode}`, 'browser', `wait_until ${mode}`);
  for (const mode of CACHE_MODES) {
    set(
      `scrape.cache_mode.${mode}`,
      'nothing',
      `cache mode ${mode} (${services.stores.backend === 'redis' ? 'cache on Redis' : 'cache in memory'})`,
    );
  }
  set('scrape.pdf_documents', 'nothing', 'PDF documents extracted as text');
  for (const strategy of CHUNK_STRATEGIES)
    set(
      `chunk_content.${strategy}`,
      strategy === 'semantic' ? 'embeddings' : 'nothing',
      `chunking strategy ${strategy}`,
    );
  for (const strategy of TABLE_STRATEGIES) set(`extract_tables.${strategy}`, 'nothing', `table strategy ${strategy}`);
  set('discover_urls', 'nothing', 'robots.txt, sitemaps and in-site link discovery');
}
