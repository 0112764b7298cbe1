/** The shared services the agent area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';

export const AGENT_USES = [
  'config',
  'discovery',
  'engines',
  'jobs',
  'llm',
  'logger',
  'models',
  'parsing',
  'scraper',
  'semantic',
  'webSearch',
] as const;

export type AgentServices = ServicesOf<(typeof AGENT_USES)[number]>;
