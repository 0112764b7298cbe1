/**
 * QUARRY_REDIS_URL switches shared state to Redis: two Quarry instances on
 * one Redis share the search cache and the durable async jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../core/stores/fixtures/local-redis.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

describe.runIf(hasRedisServer)('shared state on Redis', () => {
  let redis: LocalRedis;
  let web: SandboxWeb;
  let first: RunningQuarry;
  let second: RunningQuarry;

  beforeAll(async () => {
    redis = await startLocalRedis();
    web = await startSandboxWeb();
    playDefaultEngines(web);
    first = await startQuarry(web, { redisUrl: redis.url });
    second = await startQuarry(web, { redisUrl: redis.url });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await web?.close();
    await redis?.stop();
  });

  it('reports Redis as the storage backend', async () => {
    const res = await first.get('/api/v1/enhanced/features');
    expect(res.body.features.storage.info.backend).toBe('redis');
  });

  it('shares the search cache between instances', async () => {
    const body = { query: 'hello', engines: ['duckduckgo'], scrape_content: false, cache_ttl: 120 };
    const fromFirst = await first.post('/api/v1/search/', body);
    expect(fromFirst.body.cached).toBe(false);
    const requests = web.engineRequests('duckduckgo').length;
    const fromSecond = await second.post('/api/v1/search/', body);
    expect(fromSecond.body.cached).toBe(true);
    expect(fromSecond.body.results).toEqual(fromFirst.body.results);
    expect(web.engineRequests('duckduckgo').length).toBe(requests);
  });

  it('lets one instance read an async job another accepted', async () => {
    const accepted = await first.post('/api/v1/search/', { query: 'hello', engines: ['bing'], scrape_content: false, cache_ttl: 0, async_mode: true });
    expect(accepted.status).toBe(202);
    expect(['pending', 'processing']).toContain(accepted.body.status);
    let status: any;
    for (let i = 0; i < 100; i++) {
      status = await second.get(`/api/v1/search/jobs/${accepted.body.request_id}`);
      if (status.body.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('completed');
    expect(status.body.result.search_metadata.engines_succeeded).toEqual(['bing']);
  });
});
