/**
 * Contract of the RAG area (spec: "RAG API") and its corpus routes, over HTTP and MCP, against the
 * local research web. The tables drive every bound, enum value and response field
 * (contract-suite.ts); a corpus's lifecycle (list, read, add, resume, delete, then 404) is checked
 * below them.
 */
import { afterAll, expect, it } from 'vitest';
import { startResearchWeb, type ResearchWeb } from '../e2e/research-web.js';
import { withoutVolatile } from './response-shape.js';
import { describeContract, expectFields, field, startContractHosts, type RouteContract } from './contract-suite.js';

let site: ResearchWeb;
/** A corpus built before the tables run, for semantic search and the corpus routes. */
let corpusId: string;
afterAll(async () => {
  await site?.close();
});

const source = (prefix: string) => [
  field(`${prefix}[].url`, 'string'),
  field(`${prefix}[].title`, 'string'),
  field(`${prefix}[].summary`, 'string'),
  field(`${prefix}[].relevance_score`, 'number'),
  field(`${prefix}[].word_count`, 'integer'),
  field(`${prefix}[].engine`, 'string'),
  field(`${prefix}[].scraped_at`, 'string'),
];
const failedResults = [
  field('failed_results', 'array'),
  field('failed_results[].url', 'string', { listMayBeEmpty: true }),
  field('failed_results[].error', 'string', { listMayBeEmpty: true }),
];
const researchResponse = [
  field('topic', 'string'),
  field('corpus_id', 'string'),
  ...source('sources'),
  field('sources[].content', 'string'),
  field('sources[].id', 'string'),
  field('sources[].embedding', 'number[]', { optional: true }),
  field('total_sources_found', 'integer'),
  field('queries_executed', 'array'),
  field('processing_time_ms', 'integer'),
  field('depth', 'string'),
  field('status', 'string'),
  field('counts.sources', 'integer'),
  field('counts.chunks', 'integer'),
  field('counts.failed', 'integer'),
  field('counts.duplicates', 'integer'),
  field('categories', 'array'),
  field('embedding_model', 'string'),
  field('model_used', 'string'),
  ...failedResults,
];
/** Each research call builds its own corpus: its id, its sources' ids and read times differ. */
const researchVolatile = ['corpus_id', 'sources[].id', 'sources[].scraped_at'];
const research = { topic: 'heat pump', depth: 'quick', scrape_content: false };
const quickSearch = { query: 'heat pump', scrape_content: false };
const withCorpus = async (body: Record<string, unknown>) => ({ corpus_id: corpusId, ...body });

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/rag/search',
    tool: 'rag_search',
    minimal: { query: 'heat pump refrigerant', max_sources: 3 },
    base: quickSearch,
    bounds: [
      { field: 'max_sources', kind: 'integer', min: 1, max: 20 },
      { field: 'max_context_tokens', kind: 'integer', min: 50, max: 32_000 },
      { field: 'timeout', kind: 'number', min: 1, max: 120 },
      { field: 'query', kind: 'string', min: 1 },
    ],
    response: [
      field('query', 'string'),
      field('context', 'string'),
      ...source('sources'),
      field('sources[].content', 'string'),
      field('source_count', 'integer'),
      field('processing_time_ms', 'integer'),
      field('context_tokens', 'integer'),
      field('model_used', 'string'),
      field('engines_failed', 'array'),
      ...failedResults,
    ],
    volatile: ['sources[].scraped_at'],
    timeoutMs: 120_000,
  },
  {
    route: 'POST /api/v1/rag/research',
    tool: 'rag_research',
    minimal: { topic: 'heat pump', depth: 'quick', target_sources: 2 },
    full: { topic: 'heat pump', depth: 'quick', generate_embeddings: true, target_sources: 2 },
    base: research,
    bounds: [
      { field: 'num_queries', kind: 'integer', min: 1, max: 30 },
      { field: 'target_sources', kind: 'integer', min: 1, max: 100 },
      { field: 'categories', kind: 'array', min: 1, item: () => 'overview' },
    ],
    enums: [
      { field: 'depth', values: ['quick', 'standard', 'deep'], base: { topic: 'heat pump', target_sources: 4 } },
      {
        field: 'categories',
        list: true,
        values: [
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
        ],
        base: { topic: 'heat pump', target_sources: 2 },
      },
    ],
    response: researchResponse,
    volatile: researchVolatile,
    timeoutMs: 120_000,
  },
  {
    route: 'POST /api/v1/rag/semantic-search',
    tool: 'rag_semantic_search',
    minimal: { query: 'first heat pump', min_relevance: 0 },
    base: { query: 'heat pump' },
    prepare: withCorpus,
    bounds: [
      { field: 'limit', kind: 'integer', min: 1, max: 100 },
      { field: 'min_relevance', kind: 'number', min: 0, max: 1 },
    ],
    response: [
      field('corpus_id', 'string'),
      field('query', 'string'),
      field('results[].id', 'string'),
      field('results[].score', 'number'),
      field('results[].url', 'string'),
      field('results[].title', 'string'),
      field('results[].summary', 'string'),
      field('results[].text', 'string'),
      field('results[].chunk_index', 'integer'),
      field('results[].start', 'integer'),
      field('results[].end', 'integer'),
      field('results[].fused', 'number'),
      field('total_results', 'integer'),
      field('processing_time_ms', 'integer'),
      field('corpus_status', 'string'),
      field('vector_search', 'boolean'),
    ],
  },
  {
    route: 'POST /api/v1/rag/images',
    tool: 'rag_images',
    minimal: { query: 'tiger', max_results: 3 },
    base: { query: 'heat pump' },
    bounds: [{ field: 'max_results', kind: 'integer', min: 1, max: 50 }],
    enums: [{ field: 'safe_search', values: ['strict', 'moderate', 'off'], base: { query: 'tiger', max_results: 3 } }],
    response: [
      field('query', 'string'),
      field('images[].url', 'string'),
      field('images[].thumbnail_url', 'string'),
      field('images[].title', 'string'),
      field('images[].source_url', 'string'),
      field('images[].width', 'integer|null'),
      field('images[].height', 'integer|null'),
      field('images[].engine', 'string'),
      field('images[].engines', 'array'),
      field('total_results', 'integer'),
      field('processing_time_ms', 'integer'),
      field('engines_failed', 'array'),
    ],
  },
];

const contract = describeContract(
  'RAG',
  async () => {
    site = await startResearchWeb();
    const hosts = await startContractHosts(site.web, site.config());
    corpusId = (await hosts.http('POST', '/api/v1/rag/research', { topic: 'heat pump', depth: 'quick' })).body
      .corpus_id;
    return hosts;
  },
  routes,
);

const corpusSummary = [
  field('corpus_id', 'string'),
  field('topic', 'string'),
  field('status', 'string'),
  field('status_reason', 'string|null'),
  field('created_at', 'string'),
  field('updated_at', 'string'),
  field('counts', 'object'),
  field('parameters', 'object'),
  field('queries_planned', 'array'),
  field('queries_executed', 'array'),
  field('embedding_model', 'string'),
];

it('serves a corpus over both hosts alike: list, read, add, resume, delete, then 404 everywhere', async () => {
  const { http, mcp } = contract.hosts();
  const list = await http('GET', '/api/v1/rag/corpora', {});
  expectFields(
    list.body,
    [
      field('corpora', 'array'),
      field('total', 'integer'),
      ...corpusSummary.map((f) => ({ ...f, path: `corpora[].${f.path}` })),
    ],
    'corpus list',
  );
  expect(withoutVolatile((await mcp('rag_corpora_list', {})).structured)).toEqual(withoutVolatile(list.body));

  const one = await http('GET', '/api/v1/rag/corpora/{corpus_id}', { corpus_id: corpusId });
  expectFields(
    one.body,
    [...corpusSummary, field('sources[].id', 'string'), ...source('sources'), field('sources[].chunks', 'integer')],
    'one corpus',
  );
  expect((await mcp('rag_corpus_get', { corpus_id: corpusId })).structured).toEqual(one.body);

  const added = await http('POST', '/api/v1/rag/corpora/add', {
    corpus_id: corpusId,
    texts: [{ text: 'A text added to the corpus by the contract test.' }],
  });
  expectFields(
    added.body,
    [
      field('corpus_id', 'string'),
      field('added[].id', 'string'),
      field('added[].url', 'string'),
      field('added[].title', 'string'),
      field('added[].chunks', 'integer'),
      field('failed', 'array'),
      field('counts', 'object'),
    ],
    'added texts',
  );

  const resumed = await http('POST', '/api/v1/rag/corpora/resume', { corpus_id: corpusId });
  expectFields(resumed.body, researchResponse, 'resumed corpus');

  const removed = await mcp('rag_corpus_delete', { corpus_id: corpusId });
  expectFields(
    removed.structured,
    [
      field('corpus_id', 'string'),
      field('deleted', 'boolean'),
      field('sources_deleted', 'integer'),
      field('chunks_deleted', 'integer'),
    ],
    'deleted corpus',
  );
  for (const [path, body] of [
    ['/api/v1/rag/semantic-search', { corpus_id: corpusId, query: 'x' }],
    ['/api/v1/rag/corpora/add', { corpus_id: corpusId, texts: [{ text: 'x' }] }],
    ['/api/v1/rag/corpora/resume', { corpus_id: corpusId }],
  ] as const) {
    const answer = await http('POST', path, body);
    expect(answer.status, path).toBe(404);
    expect(answer.body.error.message).toMatch(/corpus_id/);
  }
  expect((await http('GET', '/api/v1/rag/corpora/{corpus_id}', { corpus_id: corpusId })).status).toBe(404);
}, 120_000);
