/**
 * Which engines a neural search category fans out to (docs/neural.md):
 *
 *   (none)    the configured default engines (search.defaultEngines)
 *   general   enabled engines of the "general" group
 *   news      enabled engines of the "news" group
 *   academic  enabled engines of the "academic" group
 *   tech      enabled engines of the "it" group
 *   finance   enabled engines of the "finance" group with the plain query, and the
 *             "news" group with a finance-focused query (unless it already is one)
 */
import type { EngineService } from '../engines/engine-service.js';
import { AppError } from '../../core/errors.js';
import type { NeuralCategory } from './schemas.js';

export interface EnginePlan {
  engine: string;
  /** The query as sent to this engine (finance adds a focus to news engines). */
  query: string;
}

const GROUP: Record<Exclude<NeuralCategory, 'finance'>, string> = {
  general: 'general',
  news: 'news',
  academic: 'academic',
  tech: 'it',
};

const FINANCE_TERMS = /\b(financ\w*|stocks?|shares?|market|markets|earnings|investor\w*|econom\w*|revenue|dividend\w*|bonds?|inflation|ipo|nasdaq|dow|s&p)\b/i;

function enabledIn(engines: EngineService, group: string): string[] {
  return engines
    .ids()
    .filter((id) => engines.disabledReason(id) === null)
    .filter((id) => (engines.get(id).manifest.categories as readonly string[]).includes(group));
}

export function financeQuery(query: string): string {
  return FINANCE_TERMS.test(query) ? query : `${query} finance`;
}

export function planEngines(engines: EngineService, category: NeuralCategory | undefined, query: string, defaults: string[]): EnginePlan[] {
  let plan: EnginePlan[];
  if (category === undefined) {
    plan = defaults.filter((id) => engines.has(id) && engines.disabledReason(id) === null).map((engine) => ({ engine, query }));
  } else if (category === 'finance') {
    plan = [
      ...enabledIn(engines, 'finance').map((engine) => ({ engine, query })),
      ...enabledIn(engines, 'news').map((engine) => ({ engine, query: financeQuery(query) })),
    ];
  } else {
    plan = enabledIn(engines, GROUP[category]).map((engine) => ({ engine, query }));
  }
  if (plan.length === 0) {
    throw new AppError('UNAVAILABLE', `no enabled engine serves the ${category ?? 'default'} category; enable one in the config (engines.<id>.enabled)`);
  }
  return plan;
}
