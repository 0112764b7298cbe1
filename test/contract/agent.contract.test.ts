/**
 * Contract of the agent area (spec: "Agent API"), data-driven: every bound on
 * both sides, every enum value, every response field with its type and
 * nullability, and the same JSON over HTTP and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry } from '../e2e/harness.js';
import { startResearchWeb, type ResearchWeb } from '../e2e/research-web.js';
import { until } from '../sandbox/until.js';
import { callTool, connectHosts, expectShape, stable, type Hosts } from './area-contract.js';

let site: ResearchWeb;
let hosts: Hosts;

beforeAll(async () => {
  site = await startResearchWeb();
  hosts = await connectHosts(await startQuarry(site.web, site.config()));
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await hosts?.http.close();
  await site?.close();
});

const SEARCH_RESULT = {
  id: 'string',
  title: 'string',
  url: 'string',
  content: 'string',
  score: 'number',
  'raw_content?': 'string',
  'published_date?': 'string',
  'favicon?': 'string',
  read: 'boolean',
  engines: 'array',
  'safety?': 'object',
};
const SEARCH = {
  query: 'string',
  answer: 'string|null',
  images: 'array',
  'results[]': SEARCH_RESULT,
  response_time: 'number',
  model_used: 'string',
  query_complexity: 'string',
  request_id: 'string',
  search_depth: 'string',
  topic: 'string',
  'auto_parameters?': 'object',
  'failed_results[]': { url: 'string', error: 'string' },
  engines_failed: 'array',
  follow_up_questions: 'null',
};
const EXTRACT = {
  'results[]': {
    url: 'string',
    title: 'string|null',
    raw_content: 'string',
    images: 'array',
    failed: 'boolean',
    error: 'string|null',
    'favicon?': 'string',
  },
  failed_urls: 'array',
  'failed_results[]': { url: 'string', error: 'string' },
  response_time: 'number',
  request_id: 'string',
  javascript_rendering: 'boolean',
};
const FAILED = { url: 'string', error: 'string' };
const CRAWL = {
  base_url: 'string',
  'results[]': {
    url: 'string',
    raw_content: 'string',
    images: 'array',
    'favicon?': 'string',
    title: 'string|null',
    depth: 'integer',
    'score?': 'number',
  },
  response_time: 'number',
  request_id: 'string',
  'failed_results[]': FAILED,
  timed_out: 'boolean',
};
const MAP = {
  base_url: 'string',
  results: 'array',
  response_time: 'number',
  request_id: 'string',
  'failed_results[]': FAILED,
  timed_out: 'boolean',
};
const RESEARCH = {
  query: 'string',
  executive_summary: 'string',
  detailed_analysis: 'string',
  key_findings: 'array',
  'sources[]': { title: 'string', url: 'string', content: 'string', score: 'number' },
  methodology: 'object',
  model_used: 'string',
  response_time: 'number',
};
const METHODOLOGY = {
  queries_executed: 'integer',
  sources_analyzed: 'integer',
  depth: 'string',
  rounds: 'integer',
  sub_questions: 'array',
  queries: 'array',
  planned_by: 'string',
  pages_failed: 'integer',
  duplicates_removed: 'integer',
  'failures[]': { url: 'string', stage: 'string', reason: 'string' },
  engines_failed: 'array',
  unanswered: 'array',
};

/** Crawl and map start at one heat-pump page (it links to two pages the site does not have). */
const crawlOf = (extra: Record<string, unknown>) => ({
  url: `${site.url('/heat-pumps/what-is-a-heat-pump')}`,
  ...extra,
});
const CRAWL_BOUNDS: Array<[string, string, () => Record<string, unknown>, boolean]> = ['crawl', 'map'].flatMap(
  (verb) => {
    const route = `/api/v1/agent/${verb}`;
    const tool = `agent_${verb}`;
    const rows: Array<[Record<string, unknown>, boolean]> = [
      [{ max_depth: 0 }, false],
      [{ max_depth: 1 }, true],
      [{ max_depth: 5 }, true],
      [{ max_depth: 6 }, false],
      [{ max_breadth: 0 }, false],
      [{ max_breadth: 500 }, true],
      [{ max_breadth: 501 }, false],
      [{ limit: 0 }, false],
      [{ limit: 1 }, true],
      [{ limit: 500 }, true],
      [{ limit: 501 }, false],
      [{ timeout: 9 }, false],
      [{ timeout: 10 }, true],
      [{ timeout: 150 }, true],
      [{ timeout: 151 }, false],
      [{ select_paths: Array.from({ length: 50 }, (_, i) => `^/p${i}`) }, true],
      [{ select_paths: Array.from({ length: 51 }, (_, i) => `^/p${i}`) }, false],
      [{ exclude_paths: ['/docs/('] }, false],
      [{ select_domains: ['x'.repeat(501)] }, false],
      [{ exclude_domains: [''] }, false],
      [{ instructions: 'x'.repeat(2001) }, false],
    ];
    if (verb === 'crawl')
      rows.push(
        [{ chunks_per_source: 0, instructions: 'heat' }, false],
        [{ chunks_per_source: 5, instructions: 'heat' }, true],
        [{ chunks_per_source: 6, instructions: 'heat' }, false],
      );
    return rows.map(
      ([extra, accepted]) =>
        [route, tool, () => crawlOf(extra), accepted] as [string, string, () => Record<string, unknown>, boolean],
    );
  },
);

/** [route, tool, body, accepted] — the lowest and highest value of each bound, and one past each. */
const BOUNDS: Array<[string, string, Record<string, unknown>, boolean]> = [
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', max_results: 0 }, false],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', max_results: 1 }, true],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', max_results: 20 }, true],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', max_results: 21 }, false],
  ['/api/v1/agent/search', 'agent_search', { query: '' }, false],
  ['/api/v1/agent/search', 'agent_search', { query: 'x'.repeat(2000), search_depth: 'ultra-fast' }, true],
  ['/api/v1/agent/search', 'agent_search', { query: 'x'.repeat(2001) }, false],
  [
    '/api/v1/agent/search',
    'agent_search',
    { query: 'heat pump', search_depth: 'ultra-fast', chunks_per_source: 0 },
    false,
  ],
  [
    '/api/v1/agent/search',
    'agent_search',
    { query: 'heat pump', search_depth: 'ultra-fast', chunks_per_source: 5 },
    true,
  ],
  [
    '/api/v1/agent/search',
    'agent_search',
    { query: 'heat pump', search_depth: 'ultra-fast', chunks_per_source: 6 },
    false,
  ],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', days: 0 }, false],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', days: 1 }, true],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', timeout: 0.5 }, false],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', timeout: 120 }, true],
  ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: 'ultra-fast', timeout: 121 }, false],
  ['/api/v1/agent/extract', 'agent_extract', { urls: [] }, false],
  ['/api/v1/agent/extract', 'agent_extract', { urls: ['http://127.0.0.1:9/'] }, true],
  [
    '/api/v1/agent/extract',
    'agent_extract',
    { urls: Array.from({ length: 21 }, (_, i) => `http://127.0.0.1:9/${i}`) },
    false,
  ],
  [
    '/api/v1/agent/extract',
    'agent_extract',
    { urls: ['http://127.0.0.1:9/'], chunks_per_source: 0, query: 'x' },
    false,
  ],
  ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: 'quick', max_sources: 0 }, false],
  ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: 'quick', max_sources: 1 }, true],
  ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: 'quick', max_sources: 50 }, true],
  ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: 'quick', max_sources: 51 }, false],
  ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: 'quick', focus_areas: [] }, false],
  [
    '/api/v1/agent/research',
    'agent_research',
    { query: 'heat pump', depth: 'quick', focus_areas: Array.from({ length: 9 }, (_, i) => `f${i}`) },
    false,
  ],
];

/** Each enum value of each field, accepted. */
const ENUMS: Array<[string, string, Record<string, unknown>]> = [
  ...['basic', 'advanced', 'fast', 'ultra-fast'].map(
    (v) =>
      ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', search_depth: v, max_results: 2 }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ...['general', 'news', 'finance'].map(
    (v) =>
      [
        '/api/v1/agent/search',
        'agent_search',
        { query: 'heat pump', topic: v, search_depth: 'ultra-fast', max_results: 2 },
      ] as [string, string, Record<string, unknown>],
  ),
  ...[false, true, 'basic', 'advanced', 'production'].map(
    (v) =>
      ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', include_answer: v, max_results: 2 }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ...[false, true, 'markdown', 'text'].map(
    (v) =>
      ['/api/v1/agent/search', 'agent_search', { query: 'heat pump', include_raw_content: v, max_results: 2 }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ...['auto', 'speed', 'quality', 'reasoning', 'production'].map(
    (v) =>
      [
        '/api/v1/agent/search',
        'agent_search',
        { query: 'heat pump', model: v, include_answer: true, max_results: 2 },
      ] as [string, string, Record<string, unknown>],
  ),
  ...['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y'].map(
    (v) =>
      [
        '/api/v1/agent/search',
        'agent_search',
        { query: 'heat pump', time_range: v, search_depth: 'ultra-fast', max_results: 2 },
      ] as [string, string, Record<string, unknown>],
  ),
  ...['basic', 'advanced'].map(
    (v) =>
      ['/api/v1/agent/extract', 'agent_extract', { urls: ['http://127.0.0.1:9/'], extract_depth: v }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ...['markdown', 'text'].map(
    (v) =>
      ['/api/v1/agent/extract', 'agent_extract', { urls: ['http://127.0.0.1:9/'], format: v }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ...['basic', 'advanced'].map(
    (v) => ['/api/v1/agent/crawl', 'agent_crawl', { extract_depth: v }] as [string, string, Record<string, unknown>],
  ),
  ...['markdown', 'text'].map(
    (v) =>
      [
        '/api/v1/agent/crawl',
        'agent_crawl',
        { format: v, include_images: true, include_favicon: true, instructions: 'how a heat pump moves heat' },
      ] as [string, string, Record<string, unknown>],
  ),
  ['/api/v1/agent/map', 'agent_map', { instructions: 'what is a heat pump' }],
  ...['quick', 'standard', 'deep', 'comprehensive'].map(
    (v) =>
      ['/api/v1/agent/research', 'agent_research', { query: 'heat pump', depth: v, max_sources: 3 }] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
];

describe('agent contract', () => {
  it('every bound: the value at each end is accepted, one past it is a 400 naming the field — over HTTP and MCP alike', async () => {
    for (const [route, tool, body, accepted] of [
      ...BOUNDS,
      ...CRAWL_BOUNDS.map(([r, t, make, a]) => [r, t, make(), a] as const),
    ]) {
      const http = await hosts.http.post(route, body);
      const mcp = await callTool(hosts.mcp, tool, body);
      const label = `${route} ${JSON.stringify(body).slice(0, 100)}`;
      expect(http.status, label).toBe(accepted ? 200 : 400);
      expect(mcp.ok, label).toBe(accepted);
      if (!accepted) {
        const field = Object.keys(body).find((k) => http.body.error.message.includes(k));
        expect(field, `${label}: ${http.body.error.message}`).toBeDefined();
        expect(http.body.detail.error).toBe(http.body.error.message);
        expect(mcp.text).toContain(http.body.error.message);
      }
    }
  }, 240_000);

  it('every enum value is accepted, with the response shape of the spec; HTTP and MCP give the same JSON', async () => {
    for (const [route, tool, given] of ENUMS) {
      const body = route.endsWith('/crawl') || route.endsWith('/map') ? crawlOf(given) : given;
      const http = await hosts.http.post(route, body);
      const label = `${route} ${JSON.stringify(body)}`;
      expect(http.status, label).toBe(200);
      const shape = route.endsWith('/search')
        ? SEARCH
        : route.endsWith('/extract')
          ? EXTRACT
          : route.endsWith('/crawl')
            ? CRAWL
            : route.endsWith('/map')
              ? MAP
              : RESEARCH;
      expectShape(http.body, shape, label);
      if (route.endsWith('/research')) expectShape(http.body.methodology, METHODOLOGY, `${label} methodology`);
      const mcp = await callTool(hosts.mcp, tool, body);
      expect(mcp.ok, label).toBe(true);
      expect(stable(mcp.body), label).toEqual(stable(http.body));
    }
  }, 300_000);

  it('the job form and its status route', async () => {
    const accepted = await hosts.http.post('/api/v1/agent/research', {
      query: 'heat pump',
      depth: 'quick',
      async: true,
    });
    expect(accepted.status).toBe(202);
    expectShape(accepted.body, { job_id: 'string', status: 'string', status_url: 'string' });
    const status = await until(
      'the research job to complete',
      async () => {
        const body = (await hosts.http.get(`/api/v1/agent/research/jobs/${accepted.body.job_id}`)).body;
        return body.status === 'completed' && body;
      },
      60_000,
      250,
    );
    expectShape(status, {
      job_id: 'string',
      status: 'string',
      created_at: 'string',
      updated_at: 'string',
      'progress?': 'object',
      result: 'object',
      'error?': 'object',
    });
    expectShape(status.result, RESEARCH);
    const mcp = await callTool(hosts.mcp, 'agent_research_status', { job_id: accepted.body.job_id });
    expect(stable(mcp.body)).toEqual(stable(status));
    for (const bad of ['nope', 'job_zz'])
      expect((await hosts.http.get(`/api/v1/agent/research/jobs/${bad}`)).status).toBe(400);
  }, 120_000);
});
