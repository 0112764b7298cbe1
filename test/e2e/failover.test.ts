/**
 * Failover, with real `quarry serve` processes: a job whose instance is
 * killed with SIGKILL mid-run finishes on another instance of the same
 * Redis within 60 s (the default lock and stall intervals), and its webhook
 * is posted once; with the embedded default, a job accepted before a
 * SIGKILL finishes after the restart.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { redisForThisSuite } from '../sandbox/redis-hooks.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { WEBHOOK_SECRET } from './harness.js';
import { finishedJob, fleet, type SpawnOptions } from './quarry-process.js';

const KEY = 'failover-key-0123456789';
/** Whether the sandbox's bing has been asked for `query`. */
const engineCalled = (query: string) =>
  web.requestLog().some((r) => r.path.startsWith('/engines/bing') && r.path.includes(query));

let web: SandboxWeb;
const instances = fleet(() => web, [KEY]);
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
  web.setEngineMode('bing', { kind: 'ok' });
});

describe.runIf(hasRedisServer)('two instances on one Redis', () => {
  const redis = redisForThisSuite();

  const shared = (config: SpawnOptions['config'] = {}) => ({ env: { QUARRY_REDIS_URL: redis.url }, config });

  it('finish on the other instance, within 60 s, a job whose instance is SIGKILLed mid-run, and post its webhook once', {
    timeout: 120_000,
  }, async () => {
    // Default lock and stall intervals: the bound shown is the one users get.
    const [a, b] = await Promise.all([start(shared()), start(shared())]);
    web.setEngineMode('bing', { kind: 'slow', delayMs: 3000 });
    const accepted = await a.post(
      '/api/v1/search/',
      {
        query: 'failover',
        engines: ['bing'],
        scrape_content: false,
        cache_ttl: 0,
        timeout: 8,
        async_mode: true,
        webhook_url: web.webhookUrl('failover'),
      },
      KEY,
    );
    expect(accepted.status).toBe(202);
    const id: string = accepted.body.request_id;
    // Which instance runs it: BullMQ keeps the worker's name (host:pid) on the job.
    const runner = await until(
      'a worker to take the job',
      async () => {
        const processedBy = await redis.admin.hget(`quarry:jobs-default:${id}`, 'pb');
        return [a, b].find((instance) => processedBy?.endsWith(`:${instance.pid}`));
      },
      10_000,
    );
    const survivor = runner === a ? b : a;
    // Mid-run: its engine call (3 s on bing) has reached the engine.
    await until('the job to call the engine', async () => engineCalled('failover'), 10_000);
    runner.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await runner.exited).signal).toBe('SIGKILL');
    expect((await survivor.get(`/api/v1/search/jobs/${id}`, KEY)).body.status).toBe('processing');

    const job = await finishedJob({ get: (path) => survivor.get(path, KEY) }, id, 60_000);
    const failoverMs = Date.now() - killedAt;
    expect(job.status).toBe('completed');
    expect(job.result.search_metadata.engines_succeeded).toEqual(['bing']);
    expect(failoverMs).toBeLessThan(60_000);

    const [delivery] = await web.waitForWebhook('failover', 1, 15_000);
    expect(new Webhook(WEBHOOK_SECRET).verify(delivery!.body, delivery!.headers)).toMatchObject({
      request_id: id,
      status: 'completed',
    });
    // Once the job records its one delivery as done, nothing else is on its way: it was posted once.
    const status = await until(
      'the delivery to be recorded',
      async () => {
        const answer = await survivor.get(`/api/v1/search/jobs/${id}`, KEY);
        return answer.body.webhook?.status === 'delivered' && answer;
      },
      10_000,
    );
    expect(status.body.webhook).toMatchObject({
      status: 'delivered',
      attempts: 1,
      webhook_id: delivery!.headers['webhook-id'],
    });
    expect(web.webhooks('failover')).toHaveLength(1);
  });
});

describe('one instance on the embedded default', () => {
  it('finishes after a restart a job accepted before a SIGKILL', { timeout: 90_000 }, async () => {
    const dataDir = instances.tempDir();
    const first = await start({ dataDir });
    web.setEngineMode('bing', { kind: 'slow', delayMs: 3000 });
    const accepted = await first.post(
      '/api/v1/search/',
      { query: 'survives', engines: ['bing'], scrape_content: false, cache_ttl: 0, timeout: 8, async_mode: true },
      KEY,
    );
    const id: string = accepted.body.request_id;
    // Mid-run: its engine call (3 s on bing) has reached the engine.
    await until('the job to call the engine', async () => engineCalled('survives'), 10_000);
    expect((await first.get(`/api/v1/search/jobs/${id}`, KEY)).body.status).toBe('processing');
    first.kill('SIGKILL');
    await first.exited;
    const second = await start({ dataDir });
    const job = await finishedJob({ get: (path) => second.get(path, KEY) }, id, 30_000);
    expect(job.status).toBe('completed');
    expect(job.result.search_metadata.engines_succeeded).toEqual(['bing']);
  });
});
