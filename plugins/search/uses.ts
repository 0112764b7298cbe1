/** The shared services the search area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';

export const SEARCH_USES = ['config', 'engines', 'jobs', 'logger', 'searchHistory', 'webSearch', 'webhooks'] as const;

export type SearchServices = ServicesOf<(typeof SEARCH_USES)[number]>;
