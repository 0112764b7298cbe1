/**
 * MCP over HTTP with two `quarry serve` processes on one Redis behind a
 * balancer that alternates every request: the 2.x client lists and calls
 * through it, and a task started on one instance is read and cancelled
 * through the other (the task is the job, which lives in Redis).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../sandbox/local-redis.js';
import { startRoundRobinProxy } from '../sandbox/round-robin-proxy.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { finishedTask, mcpRequest, TASKS } from './mcp-raw.js';
import { fleet } from './quarry-process.js';

const KEY = 'mcp-fleet-key-0123456789';
let web: SandboxWeb;
const instances = fleet(() => web, [KEY]);

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
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('lists, calls, and runs a task started on one instance, read and cancelled through the other', { timeout: 180_000 }, async () => {
    const shared = { env: { QUARRY_REDIS_URL: redis.url }, config: { rateLimitPerMinute: 100_000 } };
    const [a, b] = await Promise.all([instances.start(shared), instances.start(shared)]);
    const proxy = await startRoundRobinProxy([a.url, b.url]);
    try {
      const client = new Client({ name: 'fleet-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { 'x-api-key': KEY } } }));
      try {
        for (let i = 0; i < 2; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_web');
        for (let i = 0; i < 2; i++) expect(((await client.callTool({ name: 'search_engines', arguments: {} })).structuredContent as any).total_engines).toBeGreaterThan(5);
      } finally {
        await client.close();
      }

      // Started on A, read through B.
      web.setEngineMode('bing', { kind: 'slow', delayMs: 1500 });
      const search = { query: 'hello', engines: ['bing'], scrape_content: false, cache_ttl: 0, timeout: 20 };
      const opted = { key: KEY, extensions: { [TASKS]: {} } };
      const started = await mcpRequest(a.url, 'tools/call', { name: 'search_web', arguments: search }, opted);
      expect(started.message.result).toMatchObject({ resultType: 'task', status: 'working' });
      const done = await finishedTask(b.url, started.message.result.taskId, KEY);
      expect(done.status).toBe('completed');
      expect(done.result.structuredContent.results.length).toBeGreaterThan(0);

      // Started through the balancer, cancelled through the other instance, status read alternately.
      web.setEngineMode('bing', { kind: 'slow', delayMs: 8000 });
      const slow = await mcpRequest(b.url, 'tools/call', { name: 'search_web', arguments: { ...search, query: 'cancel me' } }, opted);
      const taskId = slow.message.result.taskId as string;
      const cancelled = await mcpRequest(a.url, 'tasks/cancel', { taskId }, opted);
      expect(cancelled.message.result.taskId).toBe(taskId);
      expect((await finishedTask(proxy.url, taskId, KEY)).status).toBe('cancelled');
    } finally {
      await proxy.close();
    }
  });
});
