/**
 * Which engines a topic asks (docs/agent.md, "Engines per topic"):
 *
 *   general   the configured default web engines (search.defaultEngines)
 *   news      every enabled engine of the "news" group
 *   finance   every enabled engine of the "finance" group with the query as
 *             given, and the "news" group with a finance-focused query
 *             ("<query> finance") unless the query already is one
 *
 * Disabled engines (config, missing key) are left out; a topic no enabled
 * engine serves is UNAVAILABLE, naming the group to enable.
 */
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';

export const TOPICS = ['general', 'news', 'finance'] as const;
export type Topic = (typeof TOPICS)[number];

export interface EnginePlan {
  engine: string;
  /** The query as this engine receives it. */
  query: string;
}

const FINANCE_TERMS = /\b(financ\w*|stocks?|shares?|markets?|earnings|investor\w*|econom\w*|revenue|dividend\w*|bonds?|inflation|ipo|nasdaq|dow|s&p)\b/i;

export function enabledEnginesOf(engines: EngineService, group: string): string[] {
  return engines
    .ids()
    .filter((id) => engines.disabledReason(id) === null)
    .filter((id) => (engines.get(id).manifest.categories as readonly string[]).includes(group));
}

export function financeFocus(query: string): string {
  return FINANCE_TERMS.test(query) ? query : `${query} finance`;
}

export function enginesForTopic(engines: EngineService, topic: Topic, query: string, defaultEngines: string[]): EnginePlan[] {
  let plan: EnginePlan[];
  if (topic === 'general') {
    plan = defaultEngines.filter((id) => engines.has(id) && engines.disabledReason(id) === null).map((engine) => ({ engine, query }));
  } else if (topic === 'news') {
    plan = enabledEnginesOf(engines, 'news').map((engine) => ({ engine, query }));
  } else {
    plan = [
      ...enabledEnginesOf(engines, 'finance').map((engine) => ({ engine, query })),
      ...enabledEnginesOf(engines, 'news').map((engine) => ({ engine, query: financeFocus(query) })),
    ];
  }
  if (plan.length === 0) {
    const group = topic === 'general' ? 'search.defaultEngines' : `the "${topic}" group`;
    throw new AppError('UNAVAILABLE', `topic ${topic}: no enabled engine in ${group}; enable one in the config (engines.<id>.enabled)`);
  }
  return plan;
}

/** The same engine plan for another query (research sub-questions keep the topic's routing). */
export function replan(plan: EnginePlan[], original: string, query: string): EnginePlan[] {
  return plan.map((step) => ({ engine: step.engine, query: step.query === original ? query : step.query.replace(original, query) }));
}
