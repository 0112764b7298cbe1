/**
 * What clients of the original service send beside the spec, over HTTP:
 * paths without (or with) the trailing slash, GET /health and GET / without
 * a key, unknown body fields ignored and named in X-Quarry-Ignored-Fields,
 * older SDKs' field names. MCP tool schemas stay strict.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../services/llm/fixtures/scripted-server.js';
import { buildMcpServer } from '../../hosts/mcp/server.js';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let llm: ScriptedServer;

const quick = { engines: ['duckduckgo'], scrape_content: false, cache_ttl: 0 };

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  llm = await startScriptedServer();
  quarry = await startQuarry(web, {
    llm: { fast: { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 } },
  });
});

afterAll(async () => {
  await quarry?.close();
  await llm?.close();
  await web?.close();
});

describe('trailing slash', () => {
  it('answers POST /api/v1/search without the slash exactly as with it', async () => {
    const bare = await quarry.post('/api/v1/search', { query: 'hello', ...quick });
    expect(bare.status).toBe(200);
    const slashed = await quarry.post('/api/v1/search/', { query: 'hello', ...quick });
    expect(slashed.status).toBe(200);
    expect(bare.body.results.map((r: any) => r.url)).toEqual(slashed.body.results.map((r: any) => r.url));
  });

  it('serves every route with and without a trailing slash', async () => {
    for (const capability of quarry.app.registry.list()) {
      const path = capability.http.path
        .replace(/:request_id/, 'req_000000000000000000000000')
        .replace(/:[a-z_]+/g, 'x');
      const forms = path.endsWith('/') ? [path, path.slice(0, -1)] : [path, `${path}/`];
      for (const form of forms) {
        // GET and DELETE routes run (cheap here, unknown ids); POST routes get an empty body: a 400 from validation,
        // never a 404.
        const res =
          capability.http.method === 'GET'
            ? await quarry.get(form)
            : capability.http.method === 'DELETE'
              ? await quarry.request('DELETE', form)
              : await quarry.post(form, {});
        expect(res.body?.error?.message ?? '', `${capability.http.method} ${form}`).not.toMatch(/^no route/);
      }
    }
  });
});

describe('routes without a key', () => {
  it('GET / names the service and links to the docs', async () => {
    const res = await fetch(`${quarry.url}/`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.name).toBe('Quarry');
    expect(body.links).toMatchObject({ docs: '/docs', openapi: '/api/v1/openapi.json', health: '/health' });
  });

  it('GET /health reports each service from real checks', async () => {
    llm.script({ json: { model: 'scripted-7b', choices: [{ message: { content: 'OK' }, finish_reason: 'length' }] } });
    const res = await fetch(`${quarry.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Object.keys(body.services).sort()).toEqual(['browser', 'cache', 'llm_fast', 'records']);
    for (const service of Object.values(body.services) as any[]) {
      expect(['healthy', 'unhealthy']).toContain(service.status);
      expect(Number.isInteger(service.response_time_ms)).toBe(true);
    }
    expect(body.services.cache).toMatchObject({ status: 'healthy', detail: 'memory' });
    expect(body.services.records).toMatchObject({ status: 'healthy', detail: 'sqlite' });
    expect(body.services.browser.status).toBe('healthy');
    // The model check is a real one-token call to the configured endpoint.
    expect(body.services.llm_fast).toMatchObject({ status: 'healthy', detail: 'openai-compatible: scripted-7b' });
    expect(llm.received.at(-1)?.body).toMatchObject({ model: 'scripted-7b', max_tokens: 1 });
    expect(body.status).toBe('healthy');
  });

  it('GET /health is degraded, naming the service, when a check fails', async () => {
    const broken = await startQuarry(web, {
      browser: { executablePath: '/nonexistent/chromium' },
      llm: { fast: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'gone', maxRetries: 0 } },
    });
    try {
      const res = await fetch(`${broken.url}/health/`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.status).toBe('degraded');
      expect(body.services.browser).toMatchObject({
        status: 'unhealthy',
        detail: expect.stringMatching(/Chromium not found/),
      });
      expect(body.services.llm_fast.status).toBe('unhealthy');
      expect(body.services.cache.status).toBe('healthy');
    } finally {
      await broken.close();
    }
  });

  it('still needs a key for the API', async () => {
    expect((await fetch(`${quarry.url}/api/v1/search/engines`)).status).toBe(401);
    expect(
      (
        await fetch(`${quarry.url}/api/v1/search`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);
  });
});

describe('unknown fields over HTTP', () => {
  it('ignores an unknown field, names it in X-Quarry-Ignored-Fields, and its intended effect is absent', async () => {
    // max_result (a typo of max_results): ignored, so the default of 10 applies, not 1.
    const res = await quarry.post('/api/v1/search/', { query: 'hello', ...quick, max_result: 1, colour: 'blue' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('max_result, colour');
    expect(res.body.results.length).toBeGreaterThan(1);
    const known = await quarry.post('/api/v1/search/', { query: 'hello', ...quick, max_results: 1 });
    expect(known.body.results.length).toBe(1);
    expect(known.headers.get('x-quarry-ignored-fields')).toBeNull();
  });

  it('answers a body sent again as the first time: the header, the refusal, the alias each time', async () => {
    // A search body is parsed and prepared once for the same bytes (json-body.ts); every answer must still be whole.
    for (let i = 0; i < 3; i++) {
      const res = await quarry.post('/api/v1/search/', { query: 'hello', ...quick, colour: 'blue' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-quarry-ignored-fields')).toBe('colour');
      const refused = await quarry.post('/api/v1/search/', { query: 'hello', max_results: 101, extra: true });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('x-quarry-ignored-fields')).toBe('extra');
      const conflict = await quarry.post('/api/v1/search/', {
        query: 'hello',
        ...quick,
        use_cache: false,
        cache_ttl: 60,
      });
      expect(conflict.status).toBe(400);
      expect(conflict.body.error.message).toContain('use_cache');
    }
  });

  it('still rejects a known field with a wrong type or bound, naming it', async () => {
    const res = await quarry.post('/api/v1/search/', { query: 'hello', max_results: 101, extra: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('max_results');
    expect(res.body.error.message).not.toContain('extra');
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('extra');
  });

  it('ignores unknown query parameters of GET routes the same way', async () => {
    const res = await quarry.get('/api/v1/search/engines?verbose=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quarry-ignored-fields')).toBe('verbose');
  });

  it('keeps the header safe and short whatever the names', async () => {
    const body: Record<string, unknown> = { query: 'hello', ...quick, 'a,b\nc': 1 };
    for (let i = 0; i < 30; i++) body[`x${i}`] = i;
    const res = await quarry.post('/api/v1/search/', body);
    expect(res.status).toBe(200);
    const header = res.headers.get('x-quarry-ignored-fields')!;
    expect(header.startsWith('a%2Cb%0Ac, x0, x1')).toBe(true);
    expect(header).toMatch(/\.\.\.\(11 more\)$/);
  });

  it('stays strict over MCP: an unknown argument is an error naming it', async () => {
    const server = buildMcpServer(quarry.app);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'compat-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({
        name: 'search_web',
        arguments: { query: 'hello', ...quick, max_result: 1 },
      });
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/unknown field\(s\): max_result/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("older SDKs' field names", () => {
  it('takes use_cache: false as cache_ttl: 0', async () => {
    const body = { query: 'hello world', engines: ['bing'], scrape_content: false };
    await quarry.post('/api/v1/search', body);
    const cached = await quarry.post('/api/v1/search', body);
    expect(cached.body.cached).toBe(true);
    const fresh = await quarry.post('/api/v1/search', { ...body, use_cache: false });
    expect(fresh.status).toBe(200);
    expect(fresh.body.cached).toBe(false);
    expect(fresh.headers.get('x-quarry-ignored-fields')).toBeNull();
    const stillCached = await quarry.post('/api/v1/search', { ...body, use_cache: true });
    expect(stillCached.body.cached).toBe(true);
    const conflict = await quarry.post('/api/v1/search', { ...body, use_cache: false, cache_ttl: 60 });
    expect(conflict.status).toBe(400);
    expect(conflict.body.error.message).toMatch(/use_cache: is another name for cache_ttl/);
  });
});

describe('the OpenAPI document', () => {
  it("lists the spec's paths and describes what HTTP accepts", async () => {
    const { body } = await quarry.get('/api/v1/openapi.json');
    expect(body.paths['/api/v1/search/']).toBeDefined();
    expect(body.paths['/api/v1/search']).toBeUndefined();
    expect(body.paths['/api/v1/search/status/{request_id}']).toBeUndefined();
    const search = body.paths['/api/v1/search/'].post;
    const schema = search.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).toBeUndefined();
    expect(schema.properties.use_cache.deprecated).toBe(true);
    expect(search.responses['202'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['job_id', 'status_url']),
    );
    expect(search.responses['200'].headers['x-quarry-ignored-fields']).toBeDefined();
    const neural = body.paths['/api/v1/neural/search'].post.requestBody.content['application/json'].schema;
    expect(neural.properties.top_k).toMatchObject({ type: 'integer', maximum: 50, deprecated: true });
    expect(body.paths['/health'].get.security).toEqual([]);
  });
});
