/**
 * Bad input through the HTTP host: every parameter with a wrong type, an
 * out-of-bounds value or an unknown value gets a 4xx naming the problem,
 * never a 5xx. Also keys, body limits, rate limits, OpenAPI and health.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web);
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const SEARCH_CASES: Array<[string, Record<string, unknown>, string]> = [
  ['missing query', {}, 'query'],
  ['query of the wrong type', { query: 123 }, 'query'],
  ['empty query', { query: '' }, 'query'],
  ['blank query', { query: '   ' }, 'query'],
  ['engines as a string', { query: 'q', engines: 'duckduckgo' }, 'engines'],
  ['engines with a number', { query: 'q', engines: [1] }, 'engines'],
  ['engines empty', { query: 'q', engines: [] }, 'engines'],
  ['engine id malformed', { query: 'q', engines: ['Duck-Duck'] }, 'engines'],
  ['unknown engine', { query: 'q', engines: ['nosuchengine'] }, 'nosuchengine'],
  ['max_results as a string', { query: 'q', max_results: '10' }, 'max_results'],
  ['max_results zero', { query: 'q', max_results: 0 }, 'max_results'],
  ['max_results above 100', { query: 'q', max_results: 101 }, 'max_results'],
  ['max_results fractional', { query: 'q', max_results: 5.5 }, 'max_results'],
  ['scrape_content as a string', { query: 'q', scrape_content: 'true' }, 'scrape_content'],
  ['output_format unknown', { query: 'q', output_format: 'xml' }, 'output_format'],
  ['language malformed', { query: 'q', language: 'english' }, 'language'],
  ['language as a number', { query: 'q', language: 5 }, 'language'],
  ['safe_search unknown', { query: 'q', safe_search: 'none' }, 'safe_search'],
  ['cache_ttl negative', { query: 'q', cache_ttl: -1 }, 'cache_ttl'],
  ['cache_ttl as a string', { query: 'q', cache_ttl: '60' }, 'cache_ttl'],
  ['js_mode as a number', { query: 'q', js_mode: 1 }, 'js_mode'],
  ['relevance_filter as a string', { query: 'q', relevance_filter: 'yes' }, 'relevance_filter'],
  ['min_relevance_score above 1', { query: 'q', min_relevance_score: 1.5 }, 'min_relevance_score'],
  ['min_relevance_score negative', { query: 'q', min_relevance_score: -0.1 }, 'min_relevance_score'],
  ['min_relevance_score as a string', { query: 'q', min_relevance_score: '0.2' }, 'min_relevance_score'],
  ['include_images null', { query: 'q', include_images: null }, 'include_images'],
  ['include_links as a string', { query: 'q', include_links: 'no' }, 'include_links'],
  ['timeout zero', { query: 'q', timeout: 0 }, 'timeout'],
  ['timeout too large', { query: 'q', timeout: 1000 }, 'timeout'],
  ['timeout as a string', { query: 'q', timeout: '30' }, 'timeout'],
  ['async_mode as a string', { query: 'q', async_mode: 'true' }, 'async_mode'],
  ['webhook_url not a URL', { query: 'q', async_mode: true, webhook_url: 'not a url' }, 'webhook_url'],
  ['webhook_url not http', { query: 'q', async_mode: true, webhook_url: 'ftp://example.org/hook' }, 'webhook_url'],
  ['time_range unknown', { query: 'q', time_range: 'decade' }, 'time_range'],
  ['page zero', { query: 'q', page: 0 }, 'page'],
  ['explain as a string', { query: 'q', explain: 'yes' }, 'explain'],
  ['categories unknown', { query: 'q', categories: ['gossip'] }, 'categories'],
];

describe('POST /api/v1/search/ rejects bad input with a 400 naming the field', () => {
  it.each(SEARCH_CASES)('%s', async (_name, body, field) => {
    const res = await quarry.post('/api/v1/search/', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toMatch(/^(INVALID_INPUT|UNKNOWN_ENGINE)$/);
    expect(res.body.error.message).toContain(field);
  });

  it('lists the valid engines when an engine is unknown', async () => {
    const res = await quarry.post('/api/v1/search/', { query: 'q', engines: ['duckduckgo', 'nosuchengine'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNKNOWN_ENGINE');
    expect(res.body.error.details.valid).toContain('duckduckgo');
    expect(res.body.error.message).toContain('wikipedia');
  });
});

const BATCH_CASES: Array<[string, Record<string, unknown>, string]> = [
  ['missing queries', {}, 'queries'],
  ['queries empty', { queries: [] }, 'queries'],
  ['queries as a string', { queries: 'q' }, 'queries'],
  ['an empty query', { queries: ['ok', ''] }, 'queries'],
  ['more than 100 queries', { queries: Array.from({ length: 101 }, (_, i) => `q${i}`) }, 'queries'],
  ['parallel_requests zero', { queries: ['q'], parallel_requests: 0 }, 'parallel_requests'],
  ['parallel_requests too large', { queries: ['q'], parallel_requests: 21 }, 'parallel_requests'],
  ['max_results_per_query zero', { queries: ['q'], max_results_per_query: 0 }, 'max_results_per_query'],
  ['scrape_content as a string', { queries: ['q'], scrape_content: 'no' }, 'scrape_content'],
  ['unknown engine', { queries: ['q'], engines: ['nosuchengine'] }, 'nosuchengine'],
];

describe('POST /api/v1/search/batch rejects bad input', () => {
  it.each(BATCH_CASES)('%s', async (_name, body, field) => {
    const res = await quarry.post('/api/v1/search/batch', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });
});

describe('transport-level bad input', () => {
  it('malformed JSON is a 400 MALFORMED_JSON', async () => {
    const res = await quarry.post('/api/v1/search/', '{"query": ');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MALFORMED_JSON');
  });

  it('a JSON array body is a 400', async () => {
    const res = await quarry.post('/api/v1/search/', '["query"]');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/object/);
  });

  it('an oversized body is a 413', async () => {
    const res = await quarry.post('/api/v1/search/', { query: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body that is not JSON is a 415', async () => {
    const res = await quarry.post('/api/v1/search/', 'query=x', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await quarry.get('/api/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('a malformed job id is a 400 and an unknown one a 404', async () => {
    const bad = await quarry.get('/api/v1/search/jobs/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('request_id');
    const missing = await quarry.get('/api/v1/search/jobs/req_0123456789abcdef01234567');
    expect(missing.status).toBe(404);
  });
});

describe('API keys', () => {
  it('refuses a missing key with 401', async () => {
    const res = await fetch(`${quarry.url}/api/v1/search/engines`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe('UNAUTHORIZED');
  });

  it('refuses a wrong key with 401', async () => {
    const res = await fetch(`${quarry.url}/api/v1/search/engines`, { headers: { 'x-api-key': 'wrong-key-0000000' } });
    expect(res.status).toBe(401);
  });

  it('accepts Authorization: Bearer', async () => {
    const res = await fetch(`${quarry.url}/api/v1/search/engines`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect(res.status).toBe(200);
  });

  it('serves /healthz without a key', async () => {
    const res = await fetch(`${quarry.url}/healthz`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).status).toBe('ok');
  });
});

describe('OpenAPI and metrics', () => {
  it('serves an OpenAPI document generated from the capabilities', async () => {
    const res = await quarry.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const search = res.body.paths['/api/v1/search/'].post;
    expect(search.operationId).toBe('search_web');
    expect(search.requestBody.content['application/json'].schema.properties.max_results.maximum).toBe(100);
    expect(res.body.paths['/api/v1/search/jobs/{request_id}'].get.parameters[0].in).toBe('path');
    expect(res.body.paths['/api/v1/enhanced/features'].get).toBeDefined();
  });

  it('exposes Prometheus metrics', async () => {
    await quarry.get('/api/v1/search/engines');
    const res = await quarry.get('/metrics');
    expect(res.status).toBe(200);
    expect(typeof res.body).toBe('string');
    expect(res.body).toMatch(/quarry_/);
  });

  it('serves features and performance', async () => {
    const features = await quarry.get('/api/v1/enhanced/features');
    expect(features.status).toBe(200);
    expect(features.body.features.browser).toHaveProperty('available');
    expect(features.body.features.llm.available).toBe(false);
    const performance = await quarry.get('/api/v1/enhanced/performance');
    expect(performance.status).toBe(200);
    expect(performance.body.runtime).toHaveProperty('extraction_pool');
  });
});

describe('rate limit per key', () => {
  it('answers 429 with Retry-After past the limit', async () => {
    const limited = await startQuarry(web, { rateLimitPerMinute: 3 });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof limited.get>> | null = null;
      for (let i = 0; i < 5; i++) {
        last = await limited.get('/api/v1/search/engines');
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses[4]).toBe(429);
      expect(last!.body.error.code).toBe('RATE_LIMITED');
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
