/**
 * Which engines a route asks, and with which query: the one table behind the
 * agent's topics (docs/agent.md), neural search's categories (docs/neural.md)
 * and verify's evidence search.
 *
 *   default   the configured default web engines (search.defaultEngines)
 *   general   every enabled engine of the "general" group
 *   news      every enabled engine of the "news" group
 *   academic  every enabled engine of the "academic" group
 *   tech      every enabled engine of the "it" group
 *   finance   the "finance" group with the query as given, and the "news" group
 *             with a finance-focused query ("<query> finance") unless it already is one
 *
 * Disabled engines (config, missing key) are left out; a route no enabled
 * engine serves is UNAVAILABLE, naming what to enable.
 */
import { AppError } from '../../core/errors.js';
import type { EngineService } from '../engines/engine-service.js';

export interface EnginePlan {
  engine: string;
  /** The query as this engine receives it. */
  query: string;
}

/** One part of a route: the engines of a group (or the defaults), and how the query is focused for them. */
interface RoutePart {
  group: string | 'defaults';
  focus?(query: string): string;
}

const FINANCE_TERMS =
  /\b(financ\w*|stocks?|shares?|markets?|earnings|investor\w*|econom\w*|revenue|dividend\w*|bonds?|inflation|ipo|nasdaq|dow|s&p)\b/i;

export function financeFocus(query: string): string {
  return FINANCE_TERMS.test(query) ? query : `${query} finance`;
}

const ROUTES = {
  default: [{ group: 'defaults' }],
  general: [{ group: 'general' }],
  news: [{ group: 'news' }],
  academic: [{ group: 'academic' }],
  tech: [{ group: 'it' }],
  finance: [{ group: 'finance' }, { group: 'news', focus: financeFocus }],
} satisfies Record<string, RoutePart[]>;

export type EngineRoute = keyof typeof ROUTES;

export function enabledEnginesOf(engines: EngineService, group: string): string[] {
  return engines
    .ids()
    .filter((id) => engines.disabledReason(id) === null)
    .filter((id) => (engines.get(id).manifest.categories as readonly string[]).includes(group));
}

/** The engines (and their queries) a route asks for one query; throws UNAVAILABLE when none is enabled. */
export function planEngines(
  engines: EngineService,
  route: EngineRoute,
  query: string,
  defaultEngines: string[],
): EnginePlan[] {
  const parts: readonly RoutePart[] = ROUTES[route];
  const plan = parts.flatMap((part) => {
    const ids =
      part.group === 'defaults'
        ? defaultEngines.filter((id) => engines.has(id) && engines.disabledReason(id) === null)
        : enabledEnginesOf(engines, part.group);
    return ids.map((engine) => ({ engine, query: part.focus ? part.focus(query) : query }));
  });
  if (plan.length === 0) {
    const what = parts
      .map((part) => (part.group === 'defaults' ? 'search.defaultEngines' : `the "${part.group}" group`))
      .join(' or ');
    throw new AppError(
      'UNAVAILABLE',
      `${route} search: no enabled engine in ${what}; enable one in the config (engines.<id>.enabled)`,
    );
  }
  return plan;
}

/** The same plan for another query: focused queries keep their focus (research sub-questions, query expansions). */
export function replan(plan: EnginePlan[], original: string, query: string): EnginePlan[] {
  return plan.map((step) => ({
    engine: step.engine,
    query: step.query === original ? query : step.query.replace(original, query),
  }));
}
