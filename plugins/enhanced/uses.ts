/**
 * The shared services the enhanced area uses: the list its manifest declares ("uses") and the type its code receives.
 */
import type { ServicesOf } from '../../app/plugin-services.js';

export const ENHANCED_USES = [
  'config',
  'discovery',
  'features',
  'jobs',
  'llm',
  'logger',
  'metrics',
  'parsing',
  'runtime',
  'scraper',
  'searchHistory',
  'semantic',
  'stores',
  'webSearch',
  'webhooks',
] as const;

export type EnhancedServices = ServicesOf<(typeof ENHANCED_USES)[number]>;
