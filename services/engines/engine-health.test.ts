/** Engine health in memory and on Redis: the same behaviour, and on Redis shared by every instance. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../../test/sandbox/local-redis.js';
import { EngineHealth, HEALTH_WINDOW, MemoryEngineHealthStore, type EngineHealthStore } from './engine-health.js';
import { RedisEngineHealthStore } from './engine-health-redis.js';

function behaves(name: string, store: () => EngineHealthStore) {
  describe(`engine health (${name})`, () => {
    it('suspends an engine for the time its failure carries, and never shortens a suspension', async () => {
      let now = Date.parse('2030-01-01T00:00:00Z');
      const health = new EngineHealth(store(), null, () => now);
      await health.recordFailure('bing', 'ENGINE_CAPTCHA', 'a CAPTCHA', 3600);
      expect(await health.suspension('bing')).toEqual({ remainingMs: 3600_000, reason: 'ENGINE_CAPTCHA: a CAPTCHA' });
      await health.recordFailure('bing', 'ENGINE_RATE_LIMITED', 'HTTP 429', 180);
      expect((await health.suspension('bing')).reason).toBe('ENGINE_CAPTCHA: a CAPTCHA');
      now += 3600_000;
      expect(await health.suspension('bing')).toEqual({ remainingMs: 0, reason: null });
      await health.recordFailure('bing', 'ENGINE_RATE_LIMITED', 'HTTP 429', 180);
      expect((await health.suspension('bing')).remainingMs).toBe(180_000);
      await health.resume('bing');
      expect((await health.suspension('bing')).remainingMs).toBe(0);
    });

    it('reports the recent error rate over a bounded window and the last error', async () => {
      const health = new EngineHealth(store());
      expect(await health.view('ddg')).toMatchObject({ recentErrorRate: null, recentRequests: 0, lastError: null });
      for (let i = 0; i < HEALTH_WINDOW; i++) await health.recordFailure('ddg', 'TIMEOUT', 'slow');
      for (let i = 0; i < HEALTH_WINDOW / 2; i++) await health.recordSuccess('ddg');
      const view = await health.view('ddg');
      expect(view.recentRequests).toBe(HEALTH_WINDOW);
      expect(view.recentErrorRate).toBe(0.5);
      expect(view.lastError).toMatchObject({ code: 'TIMEOUT', message: 'slow' });
      expect(view.suspendedUntil).toBeNull();
    });
  });
}

behaves('memory', () => new MemoryEngineHealthStore());

describe.runIf(hasRedisServer)('engine health on Redis', () => {
  let redis: LocalRedis;
  const clients: Redis[] = [];
  let prefix = 0;
  const client = () => {
    const connection = new Redis(redis.url);
    clients.push(connection);
    return connection;
  };
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    for (const connection of clients) connection.disconnect();
    await redis?.stop();
  });

  behaves('Redis', () => new RedisEngineHealthStore(client(), `test${++prefix}`));

  it('shows an engine suspended by one instance as suspended on another', async () => {
    const one = new EngineHealth(new RedisEngineHealthStore(client(), 'shared'));
    const other = new EngineHealth(new RedisEngineHealthStore(client(), 'shared'));
    await one.recordFailure('google', 'ENGINE_CAPTCHA', 'a CAPTCHA', 3600);
    const seen = await other.view('google');
    expect(Date.parse(seen.suspendedUntil!)).toBeGreaterThan(Date.now() + 3500_000);
    expect(seen.suspendedReason).toBe('ENGINE_CAPTCHA: a CAPTCHA');
    expect(seen.recentRequests).toBe(1);
  });

  it('treats an unreachable store as healthy instead of failing searches', async () => {
    const gone = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    gone.on('error', () => undefined);
    const health = new EngineHealth(new RedisEngineHealthStore(gone));
    await health.recordFailure('bing', 'ENGINE_CAPTCHA', 'x', 3600);
    expect(await health.suspension('bing')).toEqual({ remainingMs: 0, reason: null });
    gone.disconnect();
  });
});
