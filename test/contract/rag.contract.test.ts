/**
 * Contract of the RAG area (spec: "RAG API") and its corpus routes,
 * data-driven: every bound on both sides, every enum value, every response
 * field with its type and nullability, and the same JSON over HTTP and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry } from '../e2e/harness.js';
import { startResearchWeb, type ResearchWeb } from '../e2e/research-web.js';
import { callTool, connectHosts, expectShape, stable, type Hosts } from './area-contract.js';

let site: ResearchWeb;
let hosts: Hosts;
let corpusId: string;

beforeAll(async () => {
  site = await startResearchWeb();
  hosts = await connectHosts(await startQuarry(site.web, site.config()));
  corpusId = (await hosts.http.post('/api/v1/rag/research', { topic: 'heat pump', depth: 'quick' })).body.corpus_id;
}, 90_000);

afterAll(async () => {
  await hosts?.close();
  await hosts?.http.close();
  await site?.close();
});

const RAG_SOURCE = {
  url: 'string',
  title: 'string',
  content: 'string',
  summary: 'string',
  relevance_score: 'number',
  word_count: 'integer',
  engine: 'string',
  scraped_at: 'string',
};
const SHAPES: Record<string, Record<string, any>> = {
  '/api/v1/rag/search': {
    query: 'string',
    context: 'string',
    'sources[]': RAG_SOURCE,
    source_count: 'integer',
    processing_time_ms: 'integer',
    context_tokens: 'integer',
    model_used: 'string',
    engines_failed: 'array',
    'failed_results[]': { url: 'string', error: 'string' },
  },
  '/api/v1/rag/research': {
    topic: 'string',
    corpus_id: 'string',
    'sources[]': { ...RAG_SOURCE, id: 'string', 'embedding?': 'array' },
    total_sources_found: 'integer',
    queries_executed: 'array',
    processing_time_ms: 'integer',
    depth: 'string',
    status: 'string',
    counts: 'object',
    categories: 'array',
    embedding_model: 'string',
    model_used: 'string',
    'failed_results[]': { url: 'string', error: 'string' },
  },
  '/api/v1/rag/semantic-search': {
    corpus_id: 'string',
    query: 'string',
    'results[]': {
      id: 'string',
      score: 'number',
      url: 'string',
      title: 'string',
      summary: 'string',
      text: 'string',
      chunk_index: 'integer',
      start: 'integer',
      end: 'integer',
      fused: 'number',
    },
    total_results: 'integer',
    processing_time_ms: 'integer',
    corpus_status: 'string',
    vector_search: 'boolean',
  },
  '/api/v1/rag/images': {
    query: 'string',
    'images[]': {
      url: 'string',
      thumbnail_url: 'string',
      title: 'string',
      source_url: 'string',
      width: 'integer|null',
      height: 'integer|null',
      engine: 'string',
      engines: 'array',
    },
    total_results: 'integer',
    processing_time_ms: 'integer',
    engines_failed: 'array',
  },
};
const TOOLS: Record<string, string> = {
  '/api/v1/rag/search': 'rag_search',
  '/api/v1/rag/research': 'rag_research',
  '/api/v1/rag/semantic-search': 'rag_semantic_search',
  '/api/v1/rag/images': 'rag_images',
};

type Case = [string, Record<string, unknown>, boolean];
const bound = (
  route: string,
  base: Record<string, unknown>,
  field: string,
  low: number,
  high: number,
  step = 1,
): Case[] => [
  [route, { ...base, [field]: low - step }, false],
  [route, { ...base, [field]: low }, true],
  [route, { ...base, [field]: high }, true],
  [route, { ...base, [field]: high + step }, false],
];

describe('RAG contract', () => {
  it('every bound: the value at each end is accepted, one past it is a 400 naming the field — over HTTP and MCP alike', async () => {
    const semantic = () => ({ corpus_id: corpusId, query: 'heat pump' });
    const cases: Case[] = [
      ...bound('/api/v1/rag/search', { query: 'heat pump', scrape_content: false }, 'max_sources', 1, 20),
      ...bound('/api/v1/rag/search', { query: 'heat pump', scrape_content: false }, 'max_context_tokens', 50, 32_000),
      ...bound('/api/v1/rag/search', { query: 'heat pump', scrape_content: false }, 'timeout', 1, 120, 0.5),
      ['/api/v1/rag/search', { query: '' }, false],
      ...bound(
        '/api/v1/rag/research',
        { topic: 'heat pump', depth: 'quick', scrape_content: false },
        'num_queries',
        1,
        30,
      ),
      ...bound(
        '/api/v1/rag/research',
        { topic: 'heat pump', depth: 'quick', scrape_content: false },
        'target_sources',
        1,
        100,
      ),
      ['/api/v1/rag/research', { topic: 'heat pump', categories: [] }, false],
      ...bound('/api/v1/rag/semantic-search', semantic(), 'limit', 1, 100),
      ...bound('/api/v1/rag/semantic-search', semantic(), 'min_relevance', 0, 1, 0.01),
      ...bound('/api/v1/rag/images', { query: 'heat pump' }, 'max_results', 1, 50),
    ];
    for (const [route, body, accepted] of cases) {
      const label = `${route} ${JSON.stringify(body).slice(0, 120)}`;
      const http = await hosts.http.post(route, body);
      expect(http.status, label).toBe(accepted ? 200 : 400);
      const mcp = await callTool(hosts.mcp, TOOLS[route]!, body);
      expect(mcp.ok, label).toBe(accepted);
      if (!accepted) {
        expect(
          Object.keys(body).some((k) => http.body.error.message.includes(k)),
          `${label}: ${http.body.error.message}`,
        ).toBe(true);
        expect(mcp.text).toContain(http.body.error.message);
      }
    }
  }, 300_000);

  it('every enum value is accepted with the response shape; HTTP and MCP give the same JSON', async () => {
    const categories = [
      'overview',
      'history',
      'current_state',
      'technical',
      'practical',
      'comparison',
      'expert_opinion',
      'future_trends',
      'case_studies',
      'best_practices',
    ];
    const cases: Array<[string, Record<string, unknown>]> = [
      ...['quick', 'standard', 'deep'].map(
        (depth) =>
          ['/api/v1/rag/research', { topic: 'heat pump', depth, target_sources: 4 }] as [
            string,
            Record<string, unknown>,
          ],
      ),
      ...categories.map(
        (c) =>
          ['/api/v1/rag/research', { topic: 'heat pump', categories: [c], target_sources: 2 }] as [
            string,
            Record<string, unknown>,
          ],
      ),
      ...['strict', 'moderate', 'off'].map(
        (s) =>
          ['/api/v1/rag/images', { query: 'tiger', safe_search: s, max_results: 3 }] as [
            string,
            Record<string, unknown>,
          ],
      ),
      ['/api/v1/rag/search', { query: 'heat pump refrigerant', max_sources: 3 }],
      ['/api/v1/rag/semantic-search', { corpus_id: corpusId, query: 'first heat pump', min_relevance: 0 }],
      ['/api/v1/rag/research', { topic: 'heat pump', depth: 'quick', generate_embeddings: true, target_sources: 2 }],
    ];
    for (const [route, body] of cases) {
      const label = `${route} ${JSON.stringify(body)}`;
      const http = await hosts.http.post(route, body);
      expect(http.status, label).toBe(200);
      expectShape(http.body, SHAPES[route]!, label);
      if (route.endsWith('/research'))
        expectShape(
          http.body.counts,
          { sources: 'integer', chunks: 'integer', failed: 'integer', duplicates: 'integer' },
          label,
        );
      const mcp = await callTool(hosts.mcp, TOOLS[route]!, body);
      expect(mcp.ok, label).toBe(true);
      // Research builds a new corpus per call: compare what does not depend on the build.
      expect(stable(mcp.body), label).toEqual(stable(http.body));
    }
  }, 300_000);

  it('the corpus routes: shapes, the same JSON over both hosts, 404 for an unknown corpus', async () => {
    const list = await hosts.http.get('/api/v1/rag/corpora');
    expectShape(list.body, { corpora: 'array', total: 'integer' });
    const summary = {
      corpus_id: 'string',
      topic: 'string',
      status: 'string',
      status_reason: 'string|null',
      created_at: 'string',
      updated_at: 'string',
      counts: 'object',
      parameters: 'object',
      queries_planned: 'array',
      queries_executed: 'array',
      embedding_model: 'string',
    };
    for (const corpus of list.body.corpora) expectShape(corpus, summary);
    expect(stable((await callTool(hosts.mcp, 'rag_corpora_list', {})).body)).toEqual(stable(list.body));

    const one = await hosts.http.get(`/api/v1/rag/corpora/${corpusId}`);
    expectShape(one.body, {
      ...summary,
      'sources[]': {
        id: 'string',
        url: 'string',
        title: 'string',
        summary: 'string',
        word_count: 'integer',
        engine: 'string',
        scraped_at: 'string',
        relevance_score: 'number',
        chunks: 'integer',
      },
    });
    expect((await callTool(hosts.mcp, 'rag_corpus_get', { corpus_id: corpusId })).body).toEqual(one.body);

    const added = await hosts.http.post('/api/v1/rag/corpora/add', {
      corpus_id: corpusId,
      texts: [{ text: 'A text added to the corpus by the contract test.' }],
    });
    expectShape(added.body, {
      corpus_id: 'string',
      'added[]': { id: 'string', url: 'string', title: 'string', chunks: 'integer' },
      failed: 'array',
      counts: 'object',
    });

    const resumed = await hosts.http.post('/api/v1/rag/corpora/resume', { corpus_id: corpusId });
    expectShape(resumed.body, SHAPES['/api/v1/rag/research']!);

    const removed = await callTool(hosts.mcp, 'rag_corpus_delete', { corpus_id: corpusId });
    expectShape(removed.body, {
      corpus_id: 'string',
      deleted: 'boolean',
      sources_deleted: 'integer',
      chunks_deleted: 'integer',
    });
    for (const [path, body] of [
      ['/api/v1/rag/semantic-search', { corpus_id: corpusId, query: 'x' }],
      ['/api/v1/rag/corpora/add', { corpus_id: corpusId, texts: [{ text: 'x' }] }],
      ['/api/v1/rag/corpora/resume', { corpus_id: corpusId }],
    ] as const) {
      const res = await hosts.http.post(path, body);
      expect(res.status, path).toBe(404);
      expect(res.body.error.message).toMatch(/corpus_id/);
    }
    expect((await hosts.http.get(`/api/v1/rag/corpora/${corpusId}`)).status).toBe(404);
  }, 120_000);
});
