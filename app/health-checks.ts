/**
 * What GET /health checks, each with a small piece of real work: the cache
 * and the record store (a round trip each), Redis when configured (PING),
 * the headless browser, and each configured language model (a one-token
 * call, at most once a minute).
 */
import { randomBytes } from 'node:crypto';
import type { Stores } from '../core/stores/stores.js';
import type { BrowserPool } from '../services/browser/browser-pool.js';
import type { HealthCheck } from '../services/health/health-monitor.js';
import type { LlmClient } from '../services/llm/types.js';
import type { LlmTiers } from '../services/llm/registry.js';
import type { ModelServices } from '../services/models/model-services.js';

const LLM_CHECK_INTERVAL_MS = 60_000;
const LLM_CHECK_TIMEOUT_MS = 8000;

export function healthChecks(deps: {
  stores: Stores;
  browser: BrowserPool;
  llm: LlmTiers;
  models: ModelServices;
}): HealthCheck[] {
  const { stores, browser, llm, models: taskModels } = deps;
  const checks: HealthCheck[] = [
    {
      name: 'cache',
      async run() {
        const key = `health:${randomBytes(6).toString('hex')}`;
        await stores.cache.set(key, 'ok', 10_000);
        const read = await stores.cache.get(key);
        await stores.cache.delete(key);
        if (read !== 'ok') throw new Error('a value written to the cache did not read back');
        return stores.backend === 'redis' ? 'redis' : 'memory';
      },
    },
    {
      name: 'records',
      async run() {
        await stores.records.get('health:probe');
        return stores.backend === 'redis' ? 'redis' : 'sqlite';
      },
    },
  ];
  if (stores.pingRedis) {
    const ping = stores.pingRedis.bind(stores);
    checks.push({ name: 'redis', run: async () => void (await ping()) });
  }
  checks.push({ name: 'browser', run: () => browser.probe() });
  const models: Array<[string, LlmClient]> = [];
  if (llm.fast) models.push(['llm_fast', llm.fast]);
  if (llm.quality && llm.quality !== llm.fast) models.push(['llm_quality', llm.quality]);
  for (const [name, client] of models) {
    checks.push({
      name,
      cacheMs: LLM_CHECK_INTERVAL_MS,
      timeoutMs: LLM_CHECK_TIMEOUT_MS,
      async run(signal) {
        const answer = await client.complete({
          messages: [{ role: 'user', content: 'Reply with OK.' }],
          maxTokens: 1,
          temperature: 0,
          signal,
          timeoutMs: LLM_CHECK_TIMEOUT_MS,
        });
        return `${client.provider}: ${answer.model}`;
      },
    });
  }
  // A configured task model is reported, never loaded, here: loading may take minutes (a download).
  for (const kind of ['entities', 'stance', 'reranker'] as const) {
    if (!taskModels.configured(kind)) continue;
    checks.push({
      name: `${kind}_model`,
      async run() {
        const { model, fallbackReason } = taskModels.state(kind);
        if (fallbackReason) throw new Error(taskModels.describe(kind).detail);
        return model ? `${model.id} (${model.source})` : 'configured, loaded on first use';
      },
    });
  }
  return checks;
}
