/** The shared services the exa area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';

export const EXA_USES = [
  'config',
  'engines',
  'llm',
  'models',
  'scraper',
  'searchHistory',
  'semantic',
  'webSearch',
] as const;

export type ExaServices = ServicesOf<(typeof EXA_USES)[number]>;
