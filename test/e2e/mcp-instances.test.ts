/**
 * MCP over HTTP with two `quarry serve` processes on one Redis behind a
 * balancer that alternates every request: the 2.x client lists and calls
 * through it, a task started on one instance is read and cancelled through
 * the other (the task is the job, which lives in Redis), and a task whose
 * instance is SIGKILLed mid-run is finished by the survivor and read there.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { redisForThisSuite } from '../sandbox/redis-hooks.js';
import { startRoundRobinProxy } from '../sandbox/round-robin-proxy.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { finishedTask, mcpRequest, TASKS } from './mcp-raw.js';
import { fleet, type QuarryProcess } from './quarry-process.js';
import { until } from '../sandbox/until.js';

const KEY = 'mcp-fleet-key-0123456789';
let web: SandboxWeb;
const instances = fleet(() => web, [KEY]);
const search = { query: 'hello', engines: ['bing'], scrape_content: false, cache_ttl: 0, timeout: 20 };
const opted = { key: KEY, extensions: { [TASKS]: {} } };

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

describe.runIf(hasRedisServer)('MCP on two instances behind an alternating balancer', () => {
  const redis = redisForThisSuite();
  // Short lock and stall intervals: what is tested here is that the survivor's task reads the same over MCP;
  // the failover bound users get with the defaults is failover.test.ts's.
  const shared = () => ({
    env: { QUARRY_REDIS_URL: redis.url },
    config: { rateLimitPerMinute: 100_000, jobs: { lockMs: 6000, stalledIntervalMs: 2000 } },
  });

  it('lists, calls, and runs a task started on one instance, read and cancelled through the other', {
    timeout: 180_000,
  }, async () => {
    const [a, b] = await Promise.all([instances.start(shared()), instances.start(shared())]);
    const proxy = await startRoundRobinProxy([a.url, b.url]);
    try {
      const client = new Client(
        { name: 'fleet-test', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
          requestInit: { headers: { 'x-api-key': KEY } },
        }),
      );
      try {
        for (let i = 0; i < 2; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_web');
        // Calls until both instances have answered twice: the client may answer its second tools/list from its
        // cache (the list carries a TTL hint), and the balancer leaves a backend out of its turn for a while when
        // a health check times out on a loaded machine (a fresh-clone run once saw B answer only 1 of 6).
        const answeredTwice = () => (proxy.answeredBy.get(a.url) ?? 0) >= 2 && (proxy.answeredBy.get(b.url) ?? 0) >= 2;
        for (let i = 0; i < 4 || (!answeredTwice() && i < 40); i++) {
          expect(
            ((await client.callTool({ name: 'search_engines', arguments: {} })).structuredContent as any).total_engines,
          ).toBeGreaterThan(5);
        }
      } finally {
        await client.close();
      }
      // Each instance answered lists and calls.
      expect(proxy.answeredBy.get(a.url)).toBeGreaterThanOrEqual(2);
      expect(proxy.answeredBy.get(b.url)).toBeGreaterThanOrEqual(2);

      // Started on A, read through B.
      web.setEngineMode('bing', { kind: 'slow', delayMs: 1500 });
      const started = await mcpRequest(a.url, 'tools/call', { name: 'search_web', arguments: search }, opted);
      expect(started.message.result).toMatchObject({ resultType: 'task', status: 'working' });
      const done = await finishedTask(b.url, started.message.result.taskId, KEY);
      expect(done.status).toBe('completed');
      expect(done.result.structuredContent.results.length).toBeGreaterThan(0);

      // Started on B, cancelled through A, its status read through the balancer (both instances in turn).
      web.setEngineMode('bing', { kind: 'slow', delayMs: 8000 });
      const slow = await mcpRequest(
        b.url,
        'tools/call',
        { name: 'search_web', arguments: { ...search, query: 'cancel me' } },
        opted,
      );
      const taskId = slow.message.result.taskId as string;
      const cancelled = await mcpRequest(a.url, 'tasks/cancel', { taskId }, opted);
      expect(cancelled.message.result.taskId).toBe(taskId);
      expect((await finishedTask(proxy.url, taskId, KEY)).status).toBe('cancelled');
      // Two reads in a row through the balancer: one on each instance, both see the cancelled task.
      const before = { a: proxy.answeredBy.get(a.url) ?? 0, b: proxy.answeredBy.get(b.url) ?? 0 };
      for (let i = 0; i < 2; i++)
        expect((await mcpRequest(proxy.url, 'tasks/get', { taskId }, opted)).message.result.status).toBe('cancelled');
      expect(proxy.answeredBy.get(a.url)).toBe(before.a + 1);
      expect(proxy.answeredBy.get(b.url)).toBe(before.b + 1);
      expect(proxy.failures).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('finishes on the survivor a task whose instance is SIGKILLed mid-run, read through the balancer', {
    timeout: 240_000,
  }, async () => {
    const [a, b] = await Promise.all([instances.start(shared()), instances.start(shared())]);
    const proxy = await startRoundRobinProxy([a.url, b.url]);
    try {
      // The engine holds the job until the runner is killed.
      web.setEngineMode('bing', { kind: 'slow', delayMs: 15_000 });
      const heardBefore = web.engineRequests('bing').length;
      const started = await mcpRequest(
        proxy.url,
        'tools/call',
        { name: 'search_web', arguments: { ...search, query: 'survive me' } },
        opted,
      );
      expect(started.message.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = started.message.result.taskId as string;

      // Which instance runs it: BullMQ keeps the worker's name (host:pid) on the job; kill it once its engine call is
      // out.
      const runner = await until<QuarryProcess>(
        'a worker took the job',
        async () => {
          const processedBy = await redis.admin.hget(`quarry:jobs-default:${taskId}`, 'pb');
          return [a, b].find((instance) => processedBy?.endsWith(`:${instance.pid}`));
        },
        30_000,
      );
      await until(
        'the job called the engine',
        async () => (web.engineRequests('bing').length > heardBefore ? true : undefined),
        30_000,
      );
      const survivor = runner === a ? b : a;
      runner.kill('SIGKILL');
      expect((await runner.exited).signal).toBe('SIGKILL');
      web.setEngineMode('bing', { kind: 'ok' });

      // Still working after the kill, then completed by the survivor (BullMQ hands a stalled job over within lockMs + 2
      // × stalledIntervalMs).
      const working = await mcpRequest(survivor.url, 'tasks/get', { taskId }, opted);
      expect(working.message.result.status).toBe('working');
      const done = await finishedTask(proxy.url, taskId, KEY, 120_000);
      expect(done.status).toBe('completed');
      expect(done.result.structuredContent.search_metadata.engines_succeeded).toEqual(['bing']);
    } finally {
      await proxy.close();
    }
  });
});
