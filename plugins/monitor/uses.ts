/**
 * The shared services the monitor area uses: the list its manifest declares ("uses") and the type its code receives.
 */
import type { ServicesOf } from '../../app/plugin-services.js';

export const MONITOR_USES = [
  'config',
  'engines',
  'events',
  'jobs',
  'llm',
  'logger',
  'scraper',
  'stores',
  'webSearch',
  'webhooks',
] as const;

export type MonitorServices = ServicesOf<(typeof MONITOR_USES)[number]>;
