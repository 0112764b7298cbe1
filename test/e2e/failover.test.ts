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
import { WEBHOOK_SECRET } from './harness.js';
import { finishedJob, fleet, type QuarryProcess, type SpawnOptions } from './quarry-process.js';

const KEY = 'failover-key-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('finish on the other instance, within 60 s, a job whose instance is SIGKILLed mid-run, and post its webhook once', { timeout: 120_000 }, async () => {
    // Default lock and stall intervals: the bound shown is the one users get.
    const [a, b] = await Promise.all([start(shared()), start(shared())]);
    web.setEngineMode('bing', { kind: 'slow', delayMs: 3000 });
    const accepted = await a.post(
      '/api/v1/search/',
      { query: 'failover', engines: ['bing'], scrape_content: false, cache_ttl: 0, timeout: 8, async_mode: true, webhook_url: web.webhookUrl('failover') },
      KEY,
    );
    expect(accepted.status).toBe(202);
    const id: string = accepted.body.request_id;
    // Which instance runs it: BullMQ keeps the worker's name (host:pid) on the job.
    let runner: QuarryProcess | undefined;
    for (let i = 0; i < 100 && !runner; i++) {
      const processedBy = await redis.admin.hget(`quarry:jobs-default:${id}`, 'pb');
      runner = [a, b].find((instance) => processedBy?.endsWith(`:${instance.pid}`));
      if (!runner) await sleep(50);
    }
    expect(runner).toBeDefined();
    const survivor = runner === a ? b : a;
    await sleep(1000);
    runner!.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await runner!.exited).signal).toBe('SIGKILL');
    expect((await survivor.get(`/api/v1/search/jobs/${id}`, KEY)).body.status).toBe('processing');

    const job = await finishedJob({ get: (path) => survivor.get(path, KEY) }, id, 60_000);
    const failoverMs = Date.now() - killedAt;
    expect(job.status).toBe('completed');
    expect(job.result.search_metadata.engines_succeeded).toEqual(['bing']);
    expect(failoverMs).toBeLessThan(60_000);

    const [delivery] = await web.waitForWebhook('failover', 1, 15_000);
    expect(new Webhook(WEBHOOK_SECRET).verify(delivery!.body, delivery!.headers)).toMatchObject({ request_id: id, status: 'completed' });
    await sleep(1500);
    expect(web.webhooks('failover')).toHaveLength(1);
    const status = await survivor.get(`/api/v1/search/jobs/${id}`, KEY);
    expect(status.body.webhook).toMatchObject({ status: 'delivered', attempts: 1, webhook_id: delivery!.headers['webhook-id'] });
  });
});

describe('one instance on the embedded default', () => {
  it('finishes after a restart a job accepted before a SIGKILL', { timeout: 90_000 }, async () => {
    const dataDir = instances.tempDir();
    const first = await start({ dataDir });
    web.setEngineMode('bing', { kind: 'slow', delayMs: 3000 });
    const accepted = await first.post('/api/v1/search/', { query: 'survives', engines: ['bing'], scrape_content: false, cache_ttl: 0, timeout: 8, async_mode: true }, KEY);
    const id: string = accepted.body.request_id;
    for (let i = 0; i < 100; i++) {
      if ((await first.get(`/api/v1/search/jobs/${id}`, KEY)).body.status === 'processing') break;
      await sleep(50);
    }
    await sleep(1000);
    first.kill('SIGKILL');
    await first.exited;
    const second = await start({ dataDir });
    const job = await finishedJob({ get: (path) => second.get(path, KEY) }, id, 30_000);
    expect(job.status).toBe('completed');
    expect(job.result.search_metadata.engines_succeeded).toEqual(['bing']);
  });
});
