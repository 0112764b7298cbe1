/**
 * Several instances, as docs/scaling.md sets them up: real
 * `quarry serve` processes on loopback with one Redis (Debian's
 * redis-server, started here) and the same API keys, a load balancer in
 * front, the sandbox web behind. They share the rate limit and engine
 * suspensions, and a rolling restart under load loses no request and no
 * job. (failover.test.ts kills instances with SIGKILL.)
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { redisForThisSuite } from '../sandbox/redis-hooks.js';
import { startRoundRobinProxy } from '../sandbox/round-robin-proxy.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { finishedJob, fleet, type QuarryProcess, type SpawnOptions } from './quarry-process.js';

const KEY = 'several-instances-key-0123';
const SECOND_KEY = 'several-instances-key-4567';

let web: SandboxWeb;
const instances = fleet(() => web, [KEY, SECOND_KEY]);
const start = instances.start;

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
});

afterAll(async () => {
  await web?.close();
  instances.removeDirs();
});

afterEach(async () => {
  await instances.killAll();
  for (const engine of ['bing', 'duckduckgo', 'google']) web.setEngineMode(engine, { kind: 'ok' });
});

describe.runIf(hasRedisServer)('several quarry serve instances on one Redis', () => {
  const redis = redisForThisSuite();

  const shared = (config: SpawnOptions['config'] = {}) => ({ env: { QUARRY_REDIS_URL: redis.url }, config });

  // Two instances start inside the test: on a loaded 2-core machine that alone can take over 30 s.
  it('share one rate limit and engine suspensions', { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([
      start(shared({ rateLimitPerMinute: 40 })),
      start(shared({ rateLimitPerMinute: 40 })),
    ]);
    const statuses = async (instance: QuarryProcess) => {
      const out: number[] = [];
      for (let i = 0; i < 25; i++) out.push((await instance.get('/api/v1/search/engines', KEY)).status);
      return out;
    };
    expect((await statuses(a)).every((status) => status === 200)).toBe(true);
    const fromB = await statuses(b);
    expect(fromB.slice(0, 15).every((status) => status === 200)).toBe(true);
    expect(fromB.slice(15).every((status) => status === 429)).toBe(true);

    web.setEngineMode('google', { kind: 'captcha' });
    const search = await a.post(
      '/api/v1/search/',
      { query: 'suspend me', engines: ['google', 'duckduckgo'], scrape_content: false, cache_ttl: 0 },
      SECOND_KEY,
    );
    expect(search.body.search_metadata.engine_errors.google.code).toBe('ENGINE_CAPTCHA');
    const seenByB = await b.get('/api/v1/search/engines', SECOND_KEY);
    expect(seenByB.body.engines.google.suspended_until).not.toBeNull();
    expect(seenByB.body.engines.google.suspended_reason).toMatch(/^ENGINE_CAPTCHA/);
  });

  it('lose no request and no job in a rolling restart under load behind a load balancer', {
    timeout: 180_000,
  }, async () => {
    // A short grace period, so jobs still running at SIGTERM are handed back to the other instance.
    const config = {
      rateLimitPerMinute: 100_000,
      shutdownGraceMs: 3000,
      shutdownDrainMs: 1000,
      vectorIndex: { dir: join(instances.tempDir(), 'page-index') },
    };
    let [a, b] = await Promise.all([start(shared(config)), start(shared(config))]);
    const proxy = await startRoundRobinProxy([a.url, b.url]);
    web.setEngineMode('bing', { kind: 'slow', delayMs: 4000 });
    web.setEngineMode('duckduckgo', { kind: 'slow', delayMs: 100 });
    const viaProxy = (path: string, init: RequestInit = {}) =>
      fetch(proxy.url + path, {
        ...init,
        headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...(init.headers ?? {}) },
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json().catch(() => null)) as any,
      }));

    const answers: Array<number | 'ok'> = [];
    const jobIds: string[] = [];
    let loading = true;
    const load = async (worker: number) => {
      for (let i = 0; loading; i++) {
        const asyncSearch = (i + worker) % 3 === 0;
        const body = asyncSearch
          ? {
              query: `rolling ${worker}-${i}`,
              engines: ['bing'],
              scrape_content: false,
              cache_ttl: 0,
              async_mode: true,
            }
          : { query: `rolling ${worker}-${i}`, engines: ['duckduckgo'], scrape_content: false, cache_ttl: 0 };
        const answer = await viaProxy('/api/v1/search/', { method: 'POST', body: JSON.stringify(body) });
        // An async search is accepted with 202, a plain one answered with 200.
        answers.push(answer.status === (asyncSearch ? 202 : 200) ? 'ok' : answer.status);
        if (asyncSearch && answer.status === 202) jobIds.push(answer.body.request_id);
      }
    };
    const loadDone = Promise.all([0, 1, 2, 3].map(load));

    const restart = async (instance: QuarryProcess): Promise<QuarryProcess> => {
      const removals = proxy.removals;
      instance.kill('SIGTERM');
      expect((await instance.exited).code).toBe(0);
      instances.forget(instance);
      // The balancer has taken the instance out before it comes back on the same port.
      await until('the balancer to take the instance out', async () => proxy.removals > removals, 10_000);
      return start({ ...shared(config), port: instance.port, dataDir: instance.dataDir });
    };
    /** Load under way: more requests answered, and async jobs (4 s each on bing) accepted and still running. */
    const moreLoad = (what: string) => {
      const [answered, accepted] = [answers.length, jobIds.length];
      return until(what, async () => answers.length >= answered + 10 && jobIds.length >= accepted + 3, 30_000);
    };
    await moreLoad('load before the first restart');
    a = await restart(a);
    await moreLoad('load between the restarts');
    b = await restart(b);
    await moreLoad('load after the restarts');
    loading = false;
    await loadDone;

    await proxy.close().catch(() => undefined);

    expect(answers.length).toBeGreaterThan(20);
    expect(
      answers.filter((status) => status !== 'ok'),
      proxy.failures.join('; '),
    ).toEqual([]);
    // The restarts were seen: the balancer's health checks took each instance out while it drained.
    expect(proxy.removals).toBeGreaterThanOrEqual(2);
    expect(jobIds.length).toBeGreaterThan(4);
    for (const id of jobIds) {
      const job = await finishedJob({ get: (path) => a.get(path, KEY) }, id, 60_000);
      expect(job.status, `job ${id}`).toBe('completed');
    }
    // Jobs running at a SIGTERM were handed back and finished by the other instance (BullMQ counts the starts).
    const starts = await Promise.all(
      jobIds.map(async (id) => Number(await redis.admin.hget(`quarry:jobs-default:${id}`, 'ats'))),
    );
    expect(starts.filter((count) => count > 1).length).toBeGreaterThan(0);
  });
});
