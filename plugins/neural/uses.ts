/** The shared services the neural area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';

export const NEURAL_USES = [
  'config',
  'engines',
  'llm',
  'models',
  'scraper',
  'searchHistory',
  'semantic',
  'webSearch',
] as const;

export type NeuralServices = ServicesOf<(typeof NEURAL_USES)[number]>;
