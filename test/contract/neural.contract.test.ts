/**
 * Contract of the neural area (spec: "the service API", "the service result",
 * "Highlight", "Prediction", Limits), over HTTP and MCP, offline: the
 * embedded model, and pages served by the sandbox web through a JSON engine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { MEANING_PAGES, renderMeaningPage } from '../sandbox/meaning-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';

let web: SandboxWeb;
let scratch: string;

const CPR = MEANING_PAGES[0]!;
const CPR_TEXT = CPR.paragraphs.join(' ');
const QUERY = 'help for a person whose heart stopped';
/** A page that names no author and no date: its result must say null for both. */
const PLAIN_PATH = '/meaning/resuscitation-notes';
const PLAIN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Resuscitation notes</title></head>
<body><article><h1>Resuscitation notes</h1><p>When a heart stops, press on the chest hard and fast and send someone for a defibrillator.</p>
<p>Keep going until help arrives; a person whose heart stopped needs blood moving to the brain.</p></article></body></html>`;
const NEURAL_CATEGORIES = ['general', 'news', 'academic', 'tech', 'finance'];

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/neural/search',
    tool: 'neural_search',
    minimal: { query: QUERY },
    full: {
      query: QUERY,
      num_results: 3,
      use_autoprompt: true,
      include_highlights: true,
      include_domains: ['127.0.0.1'],
      exclude_domains: ['example.com'],
      start_published_date: '2020-01-01',
      end_published_date: '2030-12-31',
      category: 'general',
    },
    base: { query: QUERY, use_autoprompt: false },
    bounds: [{ field: 'num_results', kind: 'integer', min: 1, max: 50 }],
    enums: [{ field: 'category', values: NEURAL_CATEGORIES }],
    response: [
      field('query', 'string'),
      field('expanded_queries', 'string[]'),
      field('results[].title', 'string'),
      field('results[].url', 'string'),
      field('results[].content', 'string'),
      field('results[].score', 'number'),
      field('results[].published_date', 'string|null'),
      field('results[].author', 'string|null'),
      // "present when highlights are requested"
      field('results[].highlights', 'string[]', { optional: true }),
      field('autoprompt_used', 'boolean'),
      field('search_type', 'string', { oneOf: ['neural'] }),
      field('response_time_ms', 'integer'),
    ],
    timeoutMs: 120_000,
    invariants: [
      {
        name: 'dates and authors are null when unknown, highlights only on request',
        check(body, sent) {
          expect(body.results.length).toBeGreaterThan(0);
          expect(body.results.length).toBeLessThanOrEqual((sent.num_results as number | undefined) ?? 10);
          const cpr = body.results.find((r: any) => r.url.endsWith(CPR.path));
          expect(cpr).toMatchObject({ author: CPR.author, published_date: expect.stringMatching(/^2024-03-12/) });
          if (sent.start_published_date) {
            // A date window leaves out pages without a date.
            expect(body.results.every((r: any) => r.published_date !== null)).toBe(true);
          } else {
            expect(body.results.find((r: any) => r.url.endsWith(PLAIN_PATH))).toMatchObject({
              author: null,
              published_date: null,
            });
          }
          for (const r of body.results) expect(Array.isArray(r.highlights)).toBe(sent.include_highlights === true);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/neural/similar',
    tool: 'neural_similar',
    minimal: { text: CPR_TEXT },
    full: { url: '', num_results: 3, exclude_source: false },
    base: { text: CPR_TEXT },
    bounds: [{ field: 'num_results', kind: 'integer', min: 1, max: 50 }],
    rejects: [
      {
        name: 'both url and text (exactly one is supplied)',
        body: { url: 'https://a.example/', text: 'x' },
        field: 'url',
      },
      { name: 'neither url nor text', body: {}, field: 'url' },
    ],
    response: [
      field('source', 'string'),
      field('similar[].title', 'string'),
      field('similar[].url', 'string'),
      field('similar[].content', 'string'),
      field('similar[].score', 'number'),
      field('similar[].published_date', 'string|null'),
      field('response_time_ms', 'integer'),
    ],
    timeoutMs: 120_000,
  },
  {
    route: 'POST /api/v1/neural/highlights',
    tool: 'neural_highlights',
    minimal: { query: 'how fast should I press on the chest', content: CPR.paragraphs.join('\n\n') },
    full: { query: 'how fast should I press on the chest', content: CPR.paragraphs.join('\n\n'), num_highlights: 2 },
    bounds: [{ field: 'num_highlights', kind: 'integer', min: 1, max: 10 }],
    response: [
      field('query', 'string'),
      field('highlights[].text', 'string'),
      field('highlights[].relevance', 'number'),
      field('highlights[].start_index', 'integer'),
    ],
    invariants: [
      {
        name: 'each highlight is found at its start_index in the content',
        check(body, sent) {
          expect(body.highlights.length).toBe((sent.num_highlights as number | undefined) ?? 3);
          const content = [...(sent.content as string)];
          for (const h of body.highlights)
            expect(content.slice(h.start_index, h.start_index + [...h.text].length).join('')).toBe(h.text);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/neural/predictive',
    tool: 'neural_predictive',
    // Neither field is required: the caller's recent searches here stand in (the search route's cases ran first).
    minimal: {},
    full: {
      context: 'Learning first aid: chest compressions and the automated external defibrillator',
      recent_searches: ['first aid course', 'cpr'],
      num_predictions: 3,
    },
    base: { recent_searches: ['cpr'] },
    bounds: [{ field: 'num_predictions', kind: 'integer', min: 1, max: 10 }],
    response: [
      field('predictions[].query', 'string'),
      field('predictions[].confidence', 'number'),
      field('predictions[].reason', 'string'),
      field('context_used', 'boolean'),
    ],
    invariants: [
      {
        name: 'context_used says whether a context was sent',
        check(body, sent) {
          expect(body.context_used).toBe(sent.context !== undefined);
          expect(body.predictions.length).toBeGreaterThan(0);
          expect(body.predictions.length).toBeLessThanOrEqual((sent.num_predictions as number | undefined) ?? 5);
          for (const p of body.predictions) expect(p.confidence).toBeGreaterThan(0);
        },
      },
    ],
  },
  {
    route: 'GET /api/v1/neural/categories',
    tool: 'neural_categories',
    minimal: {},
    response: [field('categories', 'string[]')],
    invariants: [{ name: 'the five categories', check: (body) => expect(body.categories).toEqual(NEURAL_CATEGORIES) }],
  },
];

describeContract(
  'Neural API',
  async () => {
    web = await startSandboxWeb();
    for (const page of MEANING_PAGES) web.addPage(page.path, renderMeaningPage(page));
    web.addPage(PLAIN_PATH, PLAIN_PAGE);
    const items = [
      ...MEANING_PAGES.map((p) => ({ link: `${web.url}${p.path}`, name: p.title, summary: p.paragraphs[0] })),
      { link: `${web.url}${PLAIN_PATH}`, name: 'Resuscitation notes', summary: 'When a heart stops' },
    ];
    web.addPage('/api/find', JSON.stringify({ items }), { contentType: 'application/json' });
    scratch = mkdtempSync(join(tmpdir(), 'quarry-neural-contract-'));
    const autocomplete = join(scratch, 'duckduckgo-ac.json');
    writeFileSync(autocomplete, JSON.stringify([{ phrase: 'cpr steps' }, { phrase: 'cpr training near me' }]));
    web.playEngine('duckduckgo', { file: autocomplete, contentType: 'application/json' }, { rewriteLinks: false });
    // The similar route's full body reads a page of the sandbox.
    routes[1]!.full!.url = `${web.url}${CPR.path}`;
    const hosts = await startContractHosts(web, {
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
      // Without the page index, both hosts see the same candidates however many pages the other has read.
      vectorIndex: { enabled: false },
    });
    const close = hosts.close;
    return {
      ...hosts,
      async close() {
        await close();
        await web.close();
        rmSync(scratch, { recursive: true, force: true });
      },
    };
  },
  routes,
);
