/**
 * The shared services the firecrawl area uses: the list its manifest declares ("uses") and the type its code receives.
 */
import type { ServicesOf } from '../../app/plugin-services.js';

export const FIRECRAWL_USES = [
  'config',
  'discovery',
  'engines',
  'jobs',
  'llm',
  'logger',
  'parsing',
  'scraper',
  'searchHistory',
  'semantic',
  'stores',
  'webhooks',
  'webSearch',
] as const;

export type FirecrawlServices = ServicesOf<(typeof FIRECRAWL_USES)[number]>;
