/**
 * Contract of the agent area (the Tavily-shaped search, extract, crawl, map and research), over HTTP
 * and MCP, against the local research web (heat-pump pages and a query-driven engine). The tables
 * drive every bound, enum value and response field (contract-suite.ts); the job form of research
 * and the Tavily-style error detail are checked below them.
 */
import { afterAll, expect, it } from 'vitest';
import { startResearchWeb, type ResearchWeb } from '../e2e/research-web.js';
import { until } from '../sandbox/until.js';
import { withoutVolatile } from './response-shape.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';

let site: ResearchWeb;
afterAll(async () => {
  await site?.close();
});

const quickSearch = { query: 'heat pump', search_depth: 'ultra-fast', max_results: 2 };
const someUrl = { urls: ['http://127.0.0.1:9/'] };
/** Crawl and map start at one heat-pump page (it links to two pages the site does not have). */
const startPage = async (body: Record<string, unknown>) => ({
  url: site.url('/heat-pumps/what-is-a-heat-pump'),
  ...body,
});

const failed = (prefix: string) => [field(`${prefix}[].url`, 'string'), field(`${prefix}[].error`, 'string')];
const searchResponse = [
  field('query', 'string'),
  field('answer', 'string|null'),
  field('images', 'array'),
  field('results[].id', 'string'),
  field('results[].title', 'string'),
  field('results[].url', 'string'),
  field('results[].content', 'string'),
  field('results[].score', 'number'),
  field('results[].raw_content', 'string', { optional: true }),
  field('results[].published_date', 'string', { optional: true }),
  field('results[].favicon', 'string', { optional: true }),
  field('results[].read', 'boolean'),
  field('results[].engines', 'array'),
  field('results[].safety', 'object', { optional: true }),
  field('response_time', 'number'),
  field('model_used', 'string'),
  field('query_complexity', 'string'),
  field('request_id', 'string'),
  field('search_depth', 'string'),
  field('topic', 'string'),
  field('auto_parameters', 'object', { optional: true }),
  field('failed_results', 'array'),
  ...failed('failed_results').map((f) => ({ ...f, listMayBeEmpty: true })),
  field('engines_failed', 'array'),
  field('follow_up_questions', 'null'),
];
const extractResponse = [
  field('results[].url', 'string'),
  field('results[].title', 'string|null'),
  field('results[].raw_content', 'string'),
  field('results[].images', 'array'),
  field('results[].failed', 'boolean'),
  field('results[].error', 'string|null'),
  field('results[].favicon', 'string', { optional: true }),
  field('failed_urls', 'array'),
  field('failed_results', 'array'),
  ...failed('failed_results').map((f) => ({ ...f, listMayBeEmpty: true })),
  field('response_time', 'number'),
  field('request_id', 'string'),
  field('javascript_rendering', 'boolean'),
];
const crawlResponse = [
  field('base_url', 'string'),
  field('results[].url', 'string'),
  field('results[].raw_content', 'string'),
  field('results[].images', 'array'),
  field('results[].favicon', 'string', { optional: true }),
  field('results[].title', 'string|null'),
  field('results[].depth', 'integer'),
  field('results[].score', 'number', { optional: true }),
  field('response_time', 'number'),
  field('request_id', 'string'),
  field('failed_results', 'array'),
  ...failed('failed_results').map((f) => ({ ...f, listMayBeEmpty: true })),
  field('timed_out', 'boolean'),
];
const mapResponse = [
  field('base_url', 'string'),
  field('results', 'string[]'),
  field('response_time', 'number'),
  field('request_id', 'string'),
  field('failed_results', 'array'),
  ...failed('failed_results').map((f) => ({ ...f, listMayBeEmpty: true })),
  field('timed_out', 'boolean'),
];
const researchResponse = [
  field('query', 'string'),
  field('executive_summary', 'string'),
  field('detailed_analysis', 'string'),
  field('key_findings', 'array'),
  field('sources[].title', 'string'),
  field('sources[].url', 'string'),
  field('sources[].content', 'string'),
  field('sources[].score', 'number'),
  field('model_used', 'string'),
  field('response_time', 'number'),
  field('methodology.queries_executed', 'integer'),
  field('methodology.sources_analyzed', 'integer'),
  field('methodology.depth', 'string'),
  field('methodology.rounds', 'integer'),
  field('methodology.sub_questions', 'array'),
  field('methodology.queries', 'array'),
  field('methodology.planned_by', 'string'),
  field('methodology.pages_failed', 'integer'),
  field('methodology.duplicates_removed', 'integer'),
  field('methodology.failures', 'array'),
  field('methodology.failures[].url', 'string', { listMayBeEmpty: true }),
  field('methodology.failures[].stage', 'string', { listMayBeEmpty: true }),
  field('methodology.failures[].reason', 'string', { listMayBeEmpty: true }),
  field('methodology.engines_failed', 'array'),
  field('methodology.unanswered', 'array'),
];
/** Differ between two identical calls: timings and the ids of what each call made. */
const volatile = ['response_time', 'results[].id'];

/** Bounds and enum values crawl and map share (plugins/agent/crawl-schemas.ts). */
const crawlBounds = [
  { field: 'max_depth', kind: 'integer', min: 1, max: 5 },
  { field: 'max_breadth', kind: 'integer', min: 1, max: 500 },
  { field: 'limit', kind: 'integer', min: 1, max: 500 },
  { field: 'timeout', kind: 'number', min: 10, max: 150 },
  { field: 'select_paths', kind: 'array', max: 50, item: (i: number) => `^/p${i}` },
  { field: 'instructions', kind: 'string', max: 2000 },
] as const;
const crawlRejects = [
  {
    name: 'an exclude_paths pattern that is no regular expression',
    body: { exclude_paths: ['/docs/('] },
    field: 'exclude_paths',
  },
  {
    name: 'a select_domains entry of 501 characters',
    body: { select_domains: ['x'.repeat(501)] },
    field: 'select_domains',
  },
  { name: 'an empty exclude_domains entry', body: { exclude_domains: [''] }, field: 'exclude_domains' },
];

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/agent/search',
    tool: 'agent_search',
    minimal: quickSearch,
    full: {
      ...quickSearch,
      search_depth: 'advanced',
      topic: 'general',
      include_answer: 'advanced',
      include_raw_content: 'markdown',
      include_images: true,
      include_favicon: true,
      chunks_per_source: 2,
      timeout: 60,
    },
    bounds: [
      { field: 'max_results', kind: 'integer', min: 1, max: 20 },
      { field: 'chunks_per_source', kind: 'integer', min: 1, max: 5 },
      { field: 'days', kind: 'integer', min: 1, max: 3650 },
      { field: 'timeout', kind: 'number', min: 1, max: 120 },
      { field: 'query', kind: 'string', min: 1, max: 2000 },
    ],
    enums: [
      { field: 'search_depth', values: ['basic', 'advanced', 'fast', 'ultra-fast'] },
      { field: 'topic', values: ['general', 'news', 'finance'] },
      { field: 'include_answer', values: [false, true, 'basic', 'advanced', 'production'] },
      { field: 'include_raw_content', values: [false, true, 'markdown', 'text'] },
      {
        field: 'model',
        values: ['auto', 'speed', 'quality', 'reasoning', 'production'],
        base: { ...quickSearch, include_answer: true },
      },
      { field: 'time_range', values: ['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y'] },
    ],
    response: searchResponse,
    volatile,
    timeoutMs: 120_000,
  },
  {
    route: 'POST /api/v1/agent/extract',
    tool: 'agent_extract',
    minimal: someUrl,
    bounds: [
      { field: 'urls', kind: 'array', min: 1, max: 20, item: (i) => `http://127.0.0.1:9/${i}` },
      { field: 'chunks_per_source', kind: 'integer', min: 1, max: 5, base: { ...someUrl, query: 'x' } },
      { field: 'timeout', kind: 'number', min: 1, max: 120 },
    ],
    enums: [
      { field: 'extract_depth', values: ['basic', 'advanced'] },
      { field: 'format', values: ['markdown', 'text'] },
    ],
    response: extractResponse,
    volatile,
  },
  {
    route: 'POST /api/v1/agent/crawl',
    tool: 'agent_crawl',
    minimal: {},
    full: {
      max_depth: 2,
      limit: 10,
      format: 'text',
      include_images: true,
      include_favicon: true,
      instructions: 'how a heat pump moves heat',
      chunks_per_source: 2,
    },
    prepare: startPage,
    prepareRefused: true,
    bounds: [
      ...crawlBounds,
      { field: 'chunks_per_source', kind: 'integer', min: 1, max: 5, base: { instructions: 'heat' } },
    ],
    enums: [
      { field: 'extract_depth', values: ['basic', 'advanced'] },
      {
        field: 'format',
        values: ['markdown', 'text'],
        base: { include_images: true, include_favicon: true, instructions: 'how a heat pump moves heat' },
      },
    ],
    rejects: crawlRejects,
    response: crawlResponse,
    volatile,
    timeoutMs: 120_000,
  },
  {
    route: 'POST /api/v1/agent/map',
    tool: 'agent_map',
    minimal: {},
    full: { max_depth: 2, limit: 10, instructions: 'what is a heat pump' },
    prepare: startPage,
    prepareRefused: true,
    bounds: [...crawlBounds],
    rejects: crawlRejects,
    response: mapResponse,
    volatile,
  },
  {
    route: 'POST /api/v1/agent/research',
    tool: 'agent_research',
    minimal: { query: 'heat pump', depth: 'quick', max_sources: 3 },
    full: {
      query: 'heat pump',
      depth: 'standard',
      max_sources: 5,
      focus_areas: ['costs', 'efficiency'],
      topic: 'general',
    },
    bounds: [
      { field: 'max_sources', kind: 'integer', min: 1, max: 50 },
      { field: 'focus_areas', kind: 'array', min: 1, max: 8, item: (i) => `focus ${i}` },
    ],
    enums: [{ field: 'depth', values: ['quick', 'standard', 'deep', 'comprehensive'] }],
    response: researchResponse,
    volatile,
    timeoutMs: 120_000,
  },
];

const contract = describeContract(
  'agent',
  async () => {
    site = await startResearchWeb();
    return startContractHosts(site.web, site.config());
  },
  routes,
);

it('answers a refusal in the Tavily form too: detail.error is the error message', async () => {
  const { http } = contract.hosts();
  const refused = await http('POST', '/api/v1/agent/search', { ...quickSearch, max_results: 21 });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain('max_results');
  expect(refused.body.detail.error).toBe(refused.body.error.message);
});

it('runs research as a job: 202 with a status URL, the status route on both hosts, 400 for a malformed id', async () => {
  const hosts = contract.hosts();
  const accepted = await hosts.http('POST', '/api/v1/agent/research', {
    query: 'heat pump',
    depth: 'quick',
    async: true,
  });
  expect(accepted.status).toBe(202);
  expect(accepted.body).toMatchObject({
    job_id: expect.any(String),
    status: expect.any(String),
    status_url: expect.any(String),
  });
  const statusPath = `/api/v1/agent/research/jobs/${accepted.body.job_id}`;
  const done = await until(
    'the research job to complete',
    async () => {
      const status = (await hosts.http('GET', statusPath, {})).body;
      return status.status === 'completed' ? status : undefined;
    },
    60_000,
  );
  expect(done).toMatchObject({
    job_id: accepted.body.job_id,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  expect(done.result).toMatchObject({ query: 'heat pump', executive_summary: expect.any(String) });
  const mcp = await hosts.mcp('agent_research_status', { job_id: accepted.body.job_id });
  expect(mcp.isError).toBe(false);
  expect(withoutVolatile(mcp.structured)).toEqual(withoutVolatile(done));
  for (const bad of ['nope', 'job_zz'])
    expect((await hosts.http('GET', `/api/v1/agent/research/jobs/${bad}`, {})).status).toBe(400);
}, 120_000);
