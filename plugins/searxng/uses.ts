/**
 * The shared services the searxng area uses: the list its manifest declares ("uses") and the type its code receives.
 */
import type { ServicesOf } from '../../app/plugin-services.js';

export const SEARXNG_USES = ['engines', 'searchHistory', 'webSearch'] as const;

export type SearxngServices = ServicesOf<(typeof SEARXNG_USES)[number]>;
