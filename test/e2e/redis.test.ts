/**
 * QUARRY_REDIS_URL switches shared state to Redis: two Quarry instances on
 * one Redis share the search cache, the durable async jobs, the rate limit
 * and engine suspensions. (test/e2e/several-instances.test.ts does the same
 * with real `quarry serve` processes, and kills them.)
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../sandbox/local-redis.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

describe.runIf(hasRedisServer)('shared state on Redis', () => {
  let redis: LocalRedis;
  let web: SandboxWeb;
  let first: RunningQuarry;
  let second: RunningQuarry;

  beforeAll(async () => {
    redis = await startLocalRedis();
    web = await startSandboxWeb();
    playDefaultEngines(web);
    first = await startQuarry(web, { redisUrl: redis.url, rateLimitPerMinute: 40 });
    second = await startQuarry(web, { redisUrl: redis.url, rateLimitPerMinute: 40 });
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
    const accepted = await first.post('/api/v1/search/', {
      query: 'hello',
      engines: ['bing'],
      scrape_content: false,
      cache_ttl: 0,
      async_mode: true,
    });
    expect(accepted.status).toBe(202);
    expect(['pending', 'processing']).toContain(accepted.body.status);
    const status = await until(
      'the other instance to see the job completed',
      async () => {
        const answer = await second.get(`/api/v1/search/jobs/${accepted.body.request_id}`);
        return answer.body.status === 'completed' && answer;
      },
      5_000,
      50,
    );
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('completed');
    expect(status.body.result.search_metadata.engines_succeeded).toEqual(['bing']);
  });

  it('shows an engine suspended by one instance as suspended on the other', async () => {
    web.setEngineMode('google', { kind: 'captcha' });
    const res = await first.post('/api/v1/search/', {
      query: 'captcha please',
      engines: ['google', 'bing'],
      scrape_content: false,
      cache_ttl: 0,
    });
    expect(res.body.search_metadata.engine_errors.google.code).toBe('ENGINE_CAPTCHA');
    web.setEngineMode('google', { kind: 'ok' });
    const engines = await second.get('/api/v1/search/engines');
    expect(engines.body.engines.google.suspended_until).not.toBeNull();
    expect(engines.body.engines.google.suspended_reason).toMatch(/^ENGINE_CAPTCHA/);
  });

  it('counts the rate limit once for all instances: 25 requests to each with a limit of 40 serve 40', async () => {
    const admin = new Redis(redis.url);
    try {
      // Start from a fresh budget: the tests above spent some of it.
      const keys = await admin.keys('quarry:rate-limit:*');
      if (keys.length > 0) await admin.del(...keys);
    } finally {
      admin.disconnect();
    }
    const statuses = async (instance: RunningQuarry) => {
      const out: number[] = [];
      for (let i = 0; i < 25; i++) out.push((await instance.get('/api/v1/search/engines')).status);
      return out;
    };
    const fromFirst = await statuses(first);
    const fromSecond = await statuses(second);
    expect(fromFirst.every((status) => status === 200)).toBe(true);
    expect(fromSecond.filter((status) => status === 200)).toHaveLength(15);
    expect(fromSecond.slice(15).every((status) => status === 429)).toBe(true);
  });
});
