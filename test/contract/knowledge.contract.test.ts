/**
 * Contract of the knowledge area on the one contract helper (contract-suite.ts): for every
 * capability, HTTP and MCP — the built package over stdio, on the same data directory — return the
 * same JSON; each bound is accepted at its edge and refused one past it, on both hosts; every
 * response field has its declared type and nullability, and no field goes undeclared (closed tables).
 */
import { expect, it } from 'vitest';
import { TEST_KEY } from '../e2e/harness.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, expectFields, field, startContractHosts, type RouteContract } from './contract-suite.js';
import type { FieldSpec } from './response-shape.js';

const TEXT =
  'Satya Nadella, chief executive of Microsoft, said Microsoft partnered with OpenAI. ' +
  'Lucas Paganini, a planetary scientist at NASA, spoke in Greenbelt, Maryland.';

let web: SandboxWeb;
let nadellaId = '';

const entity = (prefix: string): FieldSpec[] => [
  field(`${prefix}.id`, 'string'),
  field(`${prefix}.type`, 'string'),
  field(`${prefix}.name`, 'string'),
  field(`${prefix}.description`, 'string'),
  field(`${prefix}.source_count`, 'integer'),
  field(`${prefix}.metadata.aliases`, 'string[]'),
  field(`${prefix}.metadata.merged`, 'array'),
  field(`${prefix}.metadata.merged[].alias`, 'string', { listMayBeEmpty: true }),
  field(`${prefix}.metadata.merged[].rule`, 'string', { listMayBeEmpty: true }),
  field(`${prefix}.metadata.title`, 'string|null'),
  field(`${prefix}.metadata.degree`, 'integer'),
  field(`${prefix}.metadata.model_used`, 'string'),
  field(`${prefix}.metadata.sources[].url`, 'string|null'),
  field(`${prefix}.metadata.sources[].title`, 'string|null'),
  field(`${prefix}.metadata.sources[].date`, 'string'),
  field(`${prefix}.metadata.created_at`, 'string'),
  field(`${prefix}.metadata.updated_at`, 'string'),
  field(`${prefix}.metadata.match`, 'string', { optional: true }),
  field(`${prefix}.metadata.score`, 'number', { optional: true }),
];
const relationship = (prefix: string, listMayBeEmpty = false): FieldSpec[] =>
  ['from_entity', 'to_entity', 'type'].map((name) => field(`${prefix}.${name}`, 'string', { listMayBeEmpty }));
const relationships = (prefix: string): FieldSpec[] => [
  field(prefix.slice(0, -2), 'array'),
  ...relationship(prefix, true),
  field(`${prefix}.weight`, 'number', { listMayBeEmpty: true }),
];

const entityId = async (body: Record<string, unknown>) => ({ entity_id: nadellaId, ...body });

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/knowledge/search',
    tool: 'knowledge_search',
    minimal: { query: 'Microsoft' },
    full: { query: 'planetary scientist', entity_types: ['person'], include_relationships: false },
    bounds: [
      { field: 'max_results', kind: 'integer', min: 1, max: 100 },
      { field: 'query', kind: 'string', min: 1, max: 500 },
    ],
    response: [...entity('entities[]'), ...relationships('relationships[]'), field('query', 'string')],
    closed: true,
  },
  {
    route: 'POST /api/v1/knowledge/people',
    tool: 'knowledge_people',
    minimal: { query: 'Lucas Paganini' },
    full: { query: 'Microsoft', role: 'chief executive' },
    base: { query: 'Nadella' },
    bounds: [{ field: 'max_results', kind: 'integer', min: 1, max: 100 }],
    response: [
      field('people[].id', 'string'),
      field('people[].name', 'string'),
      field('people[].title', 'string|null'),
      field('people[].organization', 'string|null'),
      field('people[].email', 'null'),
      field('people[].expertise', 'string[]'),
      field('people[].recent_activity', 'array'),
      field('people[].recent_activity[].date', 'string', { listMayBeEmpty: true }),
      field('people[].recent_activity[].title', 'string|null', { listMayBeEmpty: true }),
      field('people[].recent_activity[].url', 'string|null', { listMayBeEmpty: true }),
      field('people[].recent_activity[].snippet', 'string', { listMayBeEmpty: true }),
      field('people[].relevance_score', 'number'),
      field('query', 'string'),
    ],
    closed: true,
  },
  {
    route: 'GET /api/v1/knowledge/entities/{entity_id}',
    tool: 'knowledge_entity',
    minimal: {},
    prepare: entityId,
    response: [...entity('entity'), ...relationships('relationships[]')],
    closed: true,
  },
  {
    route: 'GET /api/v1/knowledge/graph',
    tool: 'knowledge_graph',
    minimal: { limit: 50 },
    full: { entity_types: ['person', 'organization'], limit: 3 },
    base: {},
    bounds: [{ field: 'limit', kind: 'integer', min: 1, max: 1000 }],
    response: [
      field('nodes[].id', 'string'),
      field('nodes[].type', 'string'),
      field('nodes[].name', 'string'),
      field('nodes[].degree', 'integer'),
      field('edges[].from', 'string'),
      field('edges[].to', 'string'),
      field('edges[].type', 'string'),
      field('edges[].weight', 'number'),
    ],
    closed: true,
  },
  {
    route: 'POST /api/v1/knowledge/extract',
    tool: 'knowledge_extract',
    minimal: { text: TEXT, store: false, published_date: '2025-01-02' },
    base: { store: false },
    bounds: [{ field: 'text', kind: 'string', min: 1, max: 100_000 }],
    rejects: [{ name: 'a text of only white space', body: { text: ' ', store: false }, field: 'text' }],
    response: [
      ...entity('entities[]'),
      field('relationships', 'array'),
      ...relationship('relationships[]'),
      field('relationships[].weight', 'number'),
      field('relationships[].source', 'string'),
      field('relationships[].evidence', 'string', { optional: true }),
      field('processing_time_ms', 'integer'),
      field('model_used', 'string'),
      field('stored', 'boolean'),
    ],
    closed: true,
    invariants: [
      {
        name: 'the published date dates every source',
        check(body) {
          expect(body.entities.every((e: any) => e.metadata.sources[0].date === '2025-01-02')).toBe(true);
        },
      },
    ],
  },
];

const contract = describeContract(
  'knowledge',
  async () => {
    web = await startSandboxWeb();
    // The stdio MCP host is the local admin, on the installation's graph: the HTTP key is an admin too, so both
    // read one graph.
    const hosts = await startContractHosts(
      web,
      {},
      { mcp: 'stdio', sharedData: true, http: { apiKeys: [], adminApiKeys: [TEST_KEY] } },
    );
    const extracted = await hosts.http('POST', '/api/v1/knowledge/extract', {
      text: TEXT,
      source_url: 'https://contract.example/1',
    });
    nadellaId = extracted.body.entities.find((e: any) => e.name === 'Satya Nadella').id;
    const close = hosts.close;
    return { ...hosts, close: () => close().finally(() => web.close()) };
  },
  routes,
);

it('deletes on either host with the same answer, then both say 404', async () => {
  const { http, mcp } = contract.hosts();
  const made = await http('POST', '/api/v1/knowledge/extract', {
    text: 'Dataminr acquires ThreatConnect. Dataminr is based in New York.',
  });
  const [first, second] = made.body.entities.map((e: any) => e.id);
  const overHttp = await http('DELETE', '/api/v1/knowledge/entities/{entity_id}', { entity_id: first });
  const overMcp = await mcp('knowledge_delete_entity', { entity_id: second });
  expect(overHttp.body).toEqual({ deleted: true, entity_id: first });
  expect(overMcp.structured).toEqual({ deleted: true, entity_id: second });
  expectFields(overHttp.body, [field('deleted', 'boolean'), field('entity_id', 'string')], 'deleted entity');
  const goneHttp = await http('GET', '/api/v1/knowledge/entities/{entity_id}', { entity_id: second });
  const goneMcp = await mcp('knowledge_entity', { entity_id: first });
  expect(goneHttp.status).toBe(404);
  expect(goneMcp.isError).toBe(true);
  expect(goneMcp.text).toContain('NOT_FOUND');
});
