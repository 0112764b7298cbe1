/** The shared services the firecrawl area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';

export const FIRECRAWL_USES = [
  'discovery',
  'engines',
  'llm',
  'parsing',
  'scraper',
  'searchHistory',
  'semantic',
  'webSearch',
] as const;

export type FirecrawlServices = ServicesOf<(typeof FIRECRAWL_USES)[number]>;
