/**
 * The agent's topics (docs/agent.md, "Engines per topic") and the search
 * service's route each one asks: general is the configured default engines.
 */
import type { EngineRoute } from '../../services/web-search/engine-plans.js';

export const TOPICS = ['general', 'news', 'finance'] as const;
export type Topic = (typeof TOPICS)[number];

export const TOPIC_ROUTE: Record<Topic, EngineRoute> = { general: 'default', news: 'news', finance: 'finance' };
