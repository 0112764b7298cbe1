/**
 * What the neural search pipeline needs from the shared services: a narrow
 * structural view, so the plugins that call it pass their services as they are.
 */
import type { EngineService } from '../engines/engine-service.js';
import type { LlmTiers } from '../llm/registry.js';
import type { ModelServices } from '../models/model-services.js';
import type { Scraper } from '../scrape/scraper.js';
import type { SemanticServices } from '../semantic/semantic-services.js';
import type { WebSearch } from '../web-search/web-search.js';

export interface NeuralDeps {
  config: { search: { defaultEngines: string[] } };
  engines: EngineService;
  scraper: Scraper;
  webSearch: Pick<WebSearch, 'plan' | 'gather'>;
  llm: LlmTiers;
  semantic: SemanticServices;
  /** The configured cross-encoder, when any, reorders the best documents. */
  models?: Pick<ModelServices, 'passageReranker'>;
}
