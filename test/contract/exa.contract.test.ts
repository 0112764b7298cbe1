/**
 * Contract of the exa area (docs/exa.md: Exa's wire format on the neural
 * pipeline), over HTTP and MCP, offline: the embedded model and the sandbox's
 * "meaning" pages through a JSON engine. Errors carry Exa's `message` and
 * `tag` beside Quarry's error object.
 */
import { expect, it } from 'vitest';
import { MEANING_PAGES, renderMeaningPage } from '../sandbox/meaning-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';

let web: SandboxWeb;

const CPR = MEANING_PAGES[0]!;
const QUERY = 'help for a person whose heart stopped';
const CONTENTS = {
  text: { maxCharacters: 200 },
  highlights: { highlightsPerUrl: 2 },
  summary: { query: 'chest compressions' },
};
const RESULT = [
  field('results[].id', 'string'),
  field('results[].url', 'string'),
  field('results[].title', 'string'),
  field('results[].publishedDate', 'string', { optional: true }),
  field('results[].author', 'string', { optional: true }),
  field('results[].score', 'number'),
  field('results[].text', 'string', { optional: true }),
  field('results[].highlights', 'string[]', { optional: true }),
  field('results[].highlightScores', 'number[]', { optional: true }),
  field('results[].summary', 'string', { optional: true }),
  field('requestId', 'string'),
];
const contentsAsked = (body: any, sent: Record<string, any>) => {
  const asked = sent.contents ?? (sent.urls ? { text: true, ...sent } : undefined);
  for (const r of body.results) {
    expect(r.id).toBe(r.url);
    expect(typeof r.text === 'string').toBe(Boolean(asked?.text));
    expect(Array.isArray(r.highlights)).toBe(Boolean(asked?.highlights));
    expect(r.highlightScores?.length).toBe(r.highlights?.length);
    expect(typeof r.summary === 'string').toBe(Boolean(asked?.summary));
    if (asked?.text?.maxCharacters) expect(r.text.length).toBeLessThanOrEqual(asked.text.maxCharacters);
  }
};

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/exa/search',
    tool: 'exa_search',
    minimal: { query: QUERY },
    full: {
      query: QUERY,
      numResults: 3,
      type: 'neural',
      category: 'company',
      includeDomains: ['127.0.0.1'],
      excludeDomains: ['example.com'],
      startPublishedDate: '2020-01-01',
      endPublishedDate: '2030-12-31',
      includeText: ['heart'],
      contents: CONTENTS,
    },
    base: { query: QUERY, type: 'keyword' },
    bounds: [{ field: 'numResults', kind: 'integer', min: 1, max: 100 }],
    enums: [{ field: 'type', values: ['auto', 'neural', 'keyword', 'fast', 'hybrid', 'deep', 'instant'] }],
    rejects: [
      {
        name: 'start after end',
        body: { query: QUERY, startPublishedDate: '2025-01-02', endPublishedDate: '2025-01-01' },
        field: 'startPublishedDate',
      },
    ],
    response: [...RESULT, field('resolvedSearchType', 'string', { oneOf: ['neural', 'keyword', 'fast'] })],
    volatile: ['requestId'],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'contents only as asked; the resolved type follows type',
        check(body, sent) {
          expect(body.results.length).toBeGreaterThan(0);
          expect(body.resolvedSearchType).toBe(sent.type === 'keyword' || sent.type === 'fast' ? sent.type : 'neural');
          contentsAsked(body, sent);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/exa/contents',
    tool: 'exa_contents',
    minimal: { urls: [''] },
    full: { urls: [''], ids: ['http://127.0.0.1:9/missing'], ...CONTENTS },
    base: { urls: [''] },
    bounds: [{ field: 'urls', kind: 'array', min: 1, max: 100, item: (i) => `http://127.0.0.1:9/${i}` }],
    rejects: [{ name: 'neither urls nor ids', body: {}, field: 'urls' }],
    response: [
      ...RESULT,
      field('statuses[].id', 'string'),
      field('statuses[].status', 'string', { oneOf: ['success', 'error'] }),
      field('statuses[].source', 'string'),
    ],
    volatile: ['requestId'],
    invariants: [
      {
        name: 'every URL has a status; failures are left out of results',
        check(body, sent) {
          const asked = [...(sent.urls as string[]), ...((sent.ids as string[] | undefined) ?? [])];
          expect(body.statuses.map((s: any) => s.id).sort()).toEqual([...new Set(asked)].sort());
          expect(body.results.map((r: any) => r.url)).toEqual(
            body.statuses.filter((s: any) => s.status === 'success').map((s: any) => s.id),
          );
          for (const s of body.statuses.filter((s: any) => s.status === 'error'))
            expect(s.error.tag).toMatch(/^[A-Z_]+$/);
          contentsAsked(body, sent);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/exa/findSimilar',
    tool: 'exa_find_similar',
    minimal: { url: '' },
    full: { url: '', numResults: 2, excludeSourceDomain: false, contents: CONTENTS },
    base: { url: '' },
    bounds: [{ field: 'numResults', kind: 'integer', min: 1, max: 100 }],
    rejects: [{ name: 'not an http(s) URL', body: { url: 'ftp://a.example/' }, field: 'url' }],
    response: RESULT,
    volatile: ['requestId'],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'the source is left out',
        check(body, sent) {
          expect(body.results.map((r: any) => r.url)).not.toContain(sent.url);
          contentsAsked(body, sent);
        },
      },
    ],
  },
];

const { hosts } = describeContract(
  'Exa API',
  async () => {
    web = await startSandboxWeb();
    for (const page of MEANING_PAGES) web.addPage(page.path, renderMeaningPage(page));
    const items = MEANING_PAGES.map((p) => ({ link: `${web.url}${p.path}`, name: p.title, summary: p.paragraphs[0] }));
    web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
    const page = `${web.url}${CPR.path}`;
    for (const route of routes.slice(1)) {
      for (const body of [route.minimal, route.full!, route.base!]) {
        if ('urls' in body) body.urls = [page];
        if ('url' in body) body.url = page;
      }
    }
    const started = await startContractHosts(web, {
      customEngines: [
        {
          type: 'json',
          id: 'sandbox_find',
          name: 'Sandbox search',
          urlTemplate: `${web.url}/api/find?q={query}`,
          results: 'items',
          fields: { url: 'link', title: 'name', snippet: 'summary' },
        },
      ],
      search: { defaultEngines: ['sandbox_find'] },
      vectorIndex: { enabled: false },
    });
    const close = started.close;
    return {
      ...started,
      async close() {
        await close();
        await web.close();
      },
    };
  },
  routes,
);

it("errors carry Exa's message and tag beside Quarry's error object", async () => {
  const refused = await hosts().http('POST', '/api/v1/exa/search', { query: QUERY, numResults: 0 });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('INVALID_INPUT');
  expect(refused.body.message).toBe(refused.body.error.message);
  expect(refused.body.message).toContain('numResults');
  expect(refused.body.tag).toBe('INVALID_INPUT');
});

it('accepts fields it does not know, at the top level and inside contents', async () => {
  const answer = await hosts().http('POST', '/api/v1/exa/search', {
    query: QUERY,
    type: 'fast',
    numResults: 1,
    someNewOption: 1,
    contents: { text: true, somethingElse: { a: 1 } },
  });
  expect(answer.status).toBe(200);
  expect(typeof answer.body.results[0].text).toBe('string');
});
