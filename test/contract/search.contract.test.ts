/**
 * Contract of the Search API (spec: "Search API", "Search result", "Scraped
 * content", "Search metadata", "Engine entry", Limits), over HTTP and MCP,
 * against the sandbox web playing recorded engine answers.
 */
import { expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';
import { searchAnswerFields as searchResponse } from './search-answer-fields.js';

let web: SandboxWeb;

const quick = { query: 'hello', scrape_content: false, cache_ttl: 0 };

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/search/',
    tool: 'search_web',
    minimal: { query: 'hello' },
    full: {
      query: 'hello',
      engines: ['duckduckgo', 'bing'],
      max_results: 3,
      scrape_content: true,
      output_format: 'markdown',
      language: 'en',
      safe_search: 'strict',
      cache_ttl: 60,
      js_mode: true,
      relevance_filter: true,
      min_relevance_score: 0.1,
      include_images: false,
      include_links: false,
      timeout: 60,
      async_mode: false,
      webhook_url: 'http://127.0.0.1:9/unused',
    },
    base: quick,
    bounds: [
      { field: 'max_results', kind: 'integer', min: 1, max: 100 },
      { field: 'min_relevance_score', kind: 'number', min: 0, max: 1 },
    ],
    enums: [
      { field: 'output_format', values: ['json', 'markdown'] },
      { field: 'safe_search', values: ['strict', 'moderate', 'off'] },
    ],
    response: searchResponse,
    volatile: ['markdown'],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'counts and engine lists agree',
        check(body, sent) {
          expect(body.results.length).toBeGreaterThan(0);
          expect(body.results.length).toBeLessThanOrEqual((sent.max_results as number | undefined) ?? 10);
          expect(body.total_results).toBe(body.results.length);
          expect(body.search_metadata.results_returned).toBe(body.results.length);
          expect(body.search_metadata.engines).toEqual(body.search_metadata.engines_used);
          expect(body.search_metadata.language).toBe('en');
          expect(body.results.map((r: any) => r.rank)).toEqual(body.results.map((_: unknown, i: number) => i + 1));
          // Scraping is on in both bodies (the default is true): every result carries scraped_content.
          for (const r of body.results) expect(r.scraped_content).toBeDefined();
          if (sent.include_images === false) for (const r of body.results) expect(r.scraped_content.images).toEqual([]);
          if (sent.include_links === false) for (const r of body.results) expect(r.scraped_content.links).toEqual([]);
          if (sent.output_format === 'markdown') expect(typeof body.markdown).toBe('string');
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/search/batch',
    tool: 'search_batch',
    minimal: { queries: ['hello'] },
    full: {
      queries: ['hello', 'hello world'],
      engines: ['duckduckgo', 'bing'],
      max_results_per_query: 3,
      scrape_content: true,
      parallel_requests: 2,
    },
    bounds: [{ field: 'queries', kind: 'array', min: 1, max: 100, item: (i) => `hello ${i}` }],
    response: [
      field('batch_id', 'string', { pattern: /^batch_[0-9a-f]+$/ }),
      field('queries_processed', 'integer'),
      field('queries_failed', 'integer'),
      field('results', 'object'),
      field('results{}[].title', 'string'),
      field('results{}[].url', 'string'),
      field('results{}[].snippet', 'string'),
      field('processing_time_ms', 'integer'),
      field('errors', 'object'),
    ],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'every query has its key',
        check(body, sent) {
          expect(Object.keys(body.results).sort()).toEqual([...(sent.queries as string[])].sort());
          expect(body.queries_processed + body.queries_failed).toBe((sent.queries as string[]).length);
          expect(body.errors).toEqual({});
          const cap = (sent.max_results_per_query as number | undefined) ?? 10;
          for (const list of Object.values(body.results) as unknown[][]) expect(list.length).toBeLessThanOrEqual(cap);
        },
      },
    ],
  },
  {
    route: 'GET /api/v1/search/engines',
    tool: 'search_engines',
    minimal: {},
    response: [
      field('engines', 'object'),
      field('engines{}.name', 'string'),
      field('engines{}.enabled', 'boolean'),
      field('engines{}.categories', 'string[]'),
      field('engines{}.supported_languages', 'string[]'),
      field('engines{}.safe_search_support', 'boolean'),
      field('engines{}.time_range_support', 'boolean'),
      field('engines{}.paging_support', 'boolean'),
      field('total_engines', 'integer'),
      field('enabled_engines', 'integer'),
    ],
    invariants: [
      {
        name: 'the catalogue follows the naming rules and its counts',
        check(body) {
          const entries = Object.entries(body.engines) as Array<[string, any]>;
          expect(entries.length).toBeGreaterThan(70);
          expect(body.total_engines).toBe(entries.length);
          expect(body.enabled_engines).toBe(entries.filter(([, e]) => e.enabled).length);
          for (const [id, entry] of entries) {
            expect(entry.name).toBe(id);
            expect(id).toMatch(/^[a-z][a-z0-9_]*$/);
            // "images engines end in _images"
            if (entry.categories.includes('images')) expect(id).toMatch(/_images$/);
          }
          expect(entries.some(([id, e]) => id.endsWith('_scholar') && e.categories.includes('academic'))).toBe(true);
          for (const group of ['general', 'academic', 'news', 'images', 'video'])
            expect(entries.some(([, e]) => e.categories.includes(group))).toBe(true);
        },
      },
    ],
  },
];

const { hosts } = describeContract(
  'Search API',
  async () => {
    web = await startSandboxWeb();
    playDefaultEngines(web);
    const started = await startContractHosts(web);
    const close = started.close;
    return { ...started, close: async () => (await close(), await web.close()) };
  },
  routes,
);

it('async_mode: 202 with job_id and status_url, completed through /api/v1/search/status/{job_id} over HTTP, and over MCP through search_job_status', async () => {
  const { http, mcp } = hosts();
  const body = { ...quick, engines: ['duckduckgo'], async_mode: true };
  const accepted = await http('POST', '/api/v1/search/', body);
  expect(accepted.status).toBe(202);
  expect(accepted.body).toMatchObject({
    request_id: expect.stringMatching(/^req_/),
    job_id: accepted.body.request_id,
    status: expect.stringMatching(/^(pending|processing)$/),
  });
  expect(accepted.body.status_url).toMatch(new RegExp(`/api/v1/search/jobs/${accepted.body.job_id}$`));
  const status = await until(
    'the search job to complete (HTTP)',
    async () => {
      const answer = await http('GET', `/api/v1/search/status/${accepted.body.job_id}`, {});
      return answer.body.status === 'completed' && answer;
    },
    10_000,
  );
  expect(status.status).toBe(200);
  expect(status.body.status).toBe('completed');
  expect(status.body.results.length).toBeGreaterThan(0);

  const viaMcp = await mcp('search_web', body);
  expect(viaMcp.isError).toBe(false);
  const job = viaMcp.structured as any;
  expect(job).toMatchObject({ job_id: job.request_id, status: expect.stringMatching(/^(pending|processing)$/) });
  const polled = await until(
    'the search job to complete (MCP)',
    async () => {
      const answer = await mcp('search_job_status', { request_id: job.job_id });
      return (answer.structured as any).status === 'completed' && answer;
    },
    10_000,
  );
  expect((polled.structured as any).results).toEqual(status.body.results);
}, 60_000);
