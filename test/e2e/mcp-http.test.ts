/**
 * MCP over Streamable HTTP at /mcp, end to end with the official clients:
 * the 2.x SDK client (2026-07-28, stateless) and the 1.x client (2025-06-18,
 * handshake), against Quarry in-process on the sandbox web.
 */
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';
import { finishedTask, mcpRequest, MODERN, TASKS } from './mcp-raw.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
/** A second key: another principal, who must not see the first key's tasks. */
const OTHER_KEY = 'other-key-0123456789';

const SEARCH = { query: 'hello', engines: ['duckduckgo', 'bing'], scrape_content: false, cache_ttl: 0, max_results: 8 };

async function connect(headers: Record<string, string> = { 'x-api-key': TEST_KEY }): Promise<Client> {
  const client = new Client(
    { name: 'quarry-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${quarry.url}/mcp`), { requestInit: { headers } }));
  return client;
}

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  quarry = await startQuarry(web, {}, { apiKeys: [TEST_KEY, OTHER_KEY] });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('MCP over Streamable HTTP', () => {
  it('lists the same tools as the registry, with a cache hint, to a 2026-07-28 client', async () => {
    const client = await connect();
    try {
      expect(client.getNegotiatedProtocolVersion?.()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        quarry.app.registry
          .list()
          .flatMap((c) => (c.mcpTool ? [c.mcpTool] : []))
          .sort(),
      );
    } finally {
      await client.close();
    }
    const { message } = await mcpRequest(quarry.url, 'tools/list', {}, { key: TEST_KEY });
    expect(message.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
  });

  it('answers later lists from the kept answer, with their own id', async () => {
    const first = await mcpRequest(quarry.url, 'tools/list', {}, { key: TEST_KEY });
    for (const id of ['list-41', 42]) {
      const response = await fetch(`${quarry.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': TEST_KEY,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id, result: first.message.result });
    }
  });

  it('answers a search as the HTTP API does: structured content and markdown', async () => {
    const http = await quarry.post('/api/v1/search/', SEARCH);
    const client = await connect();
    try {
      const result = await client.callTool({ name: 'search_web', arguments: SEARCH });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as any).results.map((r: any) => r.url)).toEqual(
        http.body.results.map((r: any) => r.url),
      );
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain('hello');
      const bad = await client.callTool({ name: 'search_web', arguments: { query: 'x', max_results: '5' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]!.text).toContain('INVALID_INPUT');
    } finally {
      await client.close();
    }
  });

  it('serves a 2025-06-18 client (the 1.x SDK) with its handshake', async () => {
    const client = new LegacyClient({ name: 'old-client', version: '1.0.0' });
    await client.connect(
      new LegacyHttp(new URL(`${quarry.url}/mcp`), { requestInit: { headers: { 'x-api-key': TEST_KEY } } }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_web');
      const result = await client.callTool({ name: 'search_engines', arguments: {} });
      expect((result.structuredContent as any).total_engines).toBeGreaterThan(5);
    } finally {
      await client.close();
    }
  });

  it('refuses a request without a key (401) and one from a foreign origin (403)', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const noKey = await fetch(`${quarry.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
    expect(noKey.status).toBe(401);
    const foreign = await fetch(`${quarry.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': TEST_KEY,
        origin: 'http://evil.example',
      },
      body: JSON.stringify(body),
    });
    expect(foreign.status).toBe(403);
    await expect(connect({})).rejects.toThrow();
  });

  it('runs a long tool as a task for a client that opts in: a handle at once, then the result', async () => {
    web.setEngineMode('bing', { kind: 'slow', delayMs: 1500 });
    try {
      const args = { ...SEARCH, engines: ['bing'], query: 'hello' };
      const { message } = await mcpRequest(
        quarry.url,
        'tools/call',
        { name: 'search_web', arguments: args },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      expect(message.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = message.result.taskId as string;
      expect(await quarry.app.services.jobs.get(taskId)).toMatchObject({ kind: 'search.web' });
      const done = await finishedTask(quarry.url, taskId, TEST_KEY);
      expect(done.status).toBe('completed');
      expect(done.result.structuredContent.results.length).toBeGreaterThan(0);
      expect(done.result.content[0].text).toContain('hello');
      // A completed task's status and result come from one read of its job record.
      const jobs = quarry.app.services.jobs;
      const reads = vi.spyOn(jobs, 'get'); // every read goes through get (getFor included)
      try {
        expect(
          (await mcpRequest(quarry.url, 'tasks/get', { taskId }, { key: TEST_KEY, extensions: { [TASKS]: {} } }))
            .message.result.status,
        ).toBe('completed');
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    } finally {
      web.setEngineMode('bing', { kind: 'ok' });
    }
  });

  it('runs every tool that submits a job as a task: a verify batch task answers the batch itself, as verify_batch does', async () => {
    const { message } = await mcpRequest(
      quarry.url,
      'tools/call',
      { name: 'verify_batch', arguments: { claims: ['The Eiffel Tower was completed in 1889'] } },
      { key: TEST_KEY, extensions: { [TASKS]: {} } },
    );
    expect(message.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = message.result.taskId as string;
    const done = await finishedTask(quarry.url, taskId, TEST_KEY);
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent).toMatchObject({
      job_id: taskId,
      status: 'completed',
      claims_count: 1,
      poll_url: `/api/v1/verify/batch/${taskId}`,
    });
    expect(done.result.structuredContent.results).toHaveLength(1);
  });

  it('runs agent_crawl and agent_map as tasks: each task is a job of its kind, answered as the tool answers', async () => {
    for (let i = 0; i < 3; i++)
      web.addPage(
        `/task-chain/${i}`,
        `<!doctype html><html><head><title>Chain ${i}</title></head><body><main><h1>Chain ${i}</h1><p>Page ${i} of a chain about heat pumps.</p>${i < 2 ? `<a href="/task-chain/${i + 1}">next</a>` : ''}</main></body></html>`,
      );
    const start = `${web.url}/task-chain/0`;
    const chain = [0, 1, 2].map((i) => `${web.url}/task-chain/${i}`);
    for (const [name, kind] of [
      ['agent_crawl', 'agent.crawl'],
      ['agent_map', 'agent.map'],
    ] as const) {
      const { message } = await mcpRequest(
        quarry.url,
        'tools/call',
        { name, arguments: { url: start, max_depth: 2 } },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      expect(message.result, name).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = message.result.taskId as string;
      expect(await quarry.app.services.jobs.get(taskId)).toMatchObject({ kind });
      const done = await finishedTask(quarry.url, taskId, TEST_KEY);
      expect(done.status, name).toBe('completed');
      const results = done.result.structuredContent.results as Array<string | { url: string }>;
      expect(
        results.map((r) => (typeof r === 'string' ? r : r.url)),
        name,
      ).toEqual(chain);
      expect(done.result.content[0].text, name).toContain(name === 'agent_crawl' ? 'Crawl of' : chain[2]);
    }
  }, 60_000);

  it('pushes task status on a subscriptions/listen stream naming the task: acknowledged, the state now, then the end with the result', async () => {
    web.setEngineMode('bing', { kind: 'slow', delayMs: 1500 });
    try {
      const args = { ...SEARCH, engines: ['bing'], query: 'hello' };
      const { message } = await mcpRequest(
        quarry.url,
        'tools/call',
        { name: 'search_web', arguments: args },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      const taskId = message.result.taskId as string;
      const unknown = 'req_0000000000000000';
      const response = await fetch(`${quarry.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': TEST_KEY,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'listen-1',
          method: 'subscriptions/listen',
          params: {
            notifications: { taskIds: [taskId, unknown] },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
            },
          },
        }),
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      // The stream ends by itself once the task has: reading it whole is waiting for that.
      const events = (await response.text())
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)));
      const stamp = { 'io.modelcontextprotocol/subscriptionId': 'listen-1' };
      expect(events[0]).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [taskId] }, _meta: stamp },
      });
      const statuses = events.filter((e) => e.method === 'notifications/tasks').map((e) => e.params);
      expect(statuses.map((s) => s.status)).toEqual(['working', 'completed']);
      expect(
        statuses.every((s) => s.taskId === taskId && s._meta['io.modelcontextprotocol/subscriptionId'] === 'listen-1'),
      ).toBe(true);
      // Kept as long as the finished job is: unbounded while it runs.
      expect(statuses.map((s) => s.ttlMs)).toEqual([null, expect.any(Number)]);
      expect(statuses[1].result.structuredContent.results.length).toBeGreaterThan(0);
      expect(events.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 'listen-1',
        result: { resultType: 'complete', _meta: stamp },
      });
      // Another key hears nothing of it: its stream acknowledges no task and closes at once.
      const other = await fetch(`${quarry.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': OTHER_KEY,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'subscriptions/listen',
          params: {
            notifications: { taskIds: [taskId] },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      const otherEvents = (await other.text())
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)));
      expect(otherEvents.map((e) => e.method ?? 'result')).toEqual([
        'notifications/subscriptions/acknowledged',
        'result',
      ]);
      expect(otherEvents[0].params.notifications.taskIds).toEqual([]);
    } finally {
      web.setEngineMode('bing', { kind: 'ok' });
    }
  });

  it("cancels a task, and answers an unknown task or another key's task with invalid params", async () => {
    web.setEngineMode('bing', { kind: 'slow', delayMs: 5000 });
    try {
      const args = { ...SEARCH, engines: ['bing'], query: 'cancelled search', timeout: 20 };
      const { message } = await mcpRequest(
        quarry.url,
        'tools/call',
        { name: 'search_web', arguments: args },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      const taskId = message.result.taskId as string;
      // Another key's principal is answered as for an unknown task, and cannot cancel it.
      for (const method of ['tasks/get', 'tasks/cancel'])
        expect(
          (await mcpRequest(quarry.url, method, { taskId }, { key: OTHER_KEY, extensions: { [TASKS]: {} } })).message
            .error.code,
        ).toBe(-32602);
      const cancelled = await mcpRequest(
        quarry.url,
        'tasks/cancel',
        { taskId },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      expect(cancelled.message.result.taskId).toBe(taskId);
      expect((await finishedTask(quarry.url, taskId, TEST_KEY)).status).toBe('cancelled');
      const unknown = await mcpRequest(
        quarry.url,
        'tasks/get',
        { taskId: 'req_0000000000000000' },
        { key: TEST_KEY, extensions: { [TASKS]: {} } },
      );
      expect(unknown.message.error.code).toBe(-32602);
    } finally {
      web.setEngineMode('bing', { kind: 'ok' });
    }
  });

  it('answers a client that does not opt in with the plain result', async () => {
    const { message } = await mcpRequest(
      quarry.url,
      'tools/call',
      { name: 'search_web', arguments: SEARCH },
      { key: TEST_KEY },
    );
    expect(message.result.resultType).toBe('complete');
    expect(message.result.structuredContent.results.length).toBeGreaterThan(0);
  });
});
