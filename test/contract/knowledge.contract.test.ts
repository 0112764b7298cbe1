/**
 * Contract of the knowledge area, data-driven and self-contained: for every
 * capability, HTTP and MCP (the built package over stdio, on the same data
 * directory) return the same JSON; each numeric bound is accepted at its
 * edge and refused one past it, on both hosts; every response field has its
 * declared type and nullability.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { sandboxConfig, startQuarry, TEST_KEY, type RunningQuarry } from '../e2e/harness.js';

const TEXT =
  'Satya Nadella, chief executive of Microsoft, said Microsoft partnered with OpenAI. ' +
  'Lucas Paganini, a planetary scientist at NASA, spoke in Greenbelt, Maryland.';

/** Field type rules: "string", "integer", "number", "boolean", "null", "object", "array", alternatives with "|". */
type Shape = string | { [field: string]: Shape } | [Shape];

const ENTITY: Shape = {
  id: 'string',
  type: 'string',
  name: 'string',
  description: 'string',
  source_count: 'integer',
  metadata: {
    aliases: ['string'],
    merged: [{ alias: 'string', rule: 'string' }],
    title: 'string|null',
    degree: 'integer',
    model_used: 'string',
    sources: [{ url: 'string|null', title: 'string|null', date: 'string' }],
    created_at: 'string',
    updated_at: 'string',
    'match?': 'string',
    'score?': 'number',
  },
};
const RELATIONSHIP: Shape = { from_entity: 'string', to_entity: 'string', type: 'string', weight: 'number' };

const SHAPES: Record<string, Shape> = {
  knowledge_extract: {
    entities: [ENTITY],
    relationships: [{ ...(RELATIONSHIP as object), source: 'string', 'evidence?': 'string' }],
    processing_time_ms: 'integer',
    model_used: 'string',
    stored: 'boolean',
  },
  knowledge_search: { entities: [ENTITY], relationships: [RELATIONSHIP], query: 'string' },
  knowledge_people: {
    people: [
      {
        id: 'string',
        name: 'string',
        title: 'string|null',
        organization: 'string|null',
        email: 'null',
        expertise: ['string'],
        recent_activity: [{ date: 'string', title: 'string|null', url: 'string|null', snippet: 'string' }],
        relevance_score: 'number',
      },
    ],
    query: 'string',
  },
  knowledge_entity: { entity: ENTITY, relationships: [RELATIONSHIP] },
  knowledge_graph: {
    nodes: [{ id: 'string', type: 'string', name: 'string', degree: 'integer' }],
    edges: [{ from: 'string', to: 'string', type: 'string', weight: 'number' }],
  },
  knowledge_delete_entity: { deleted: 'boolean', entity_id: 'string' },
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Every declared field present with an allowed type, and no undeclared field. */
function checkShape(value: unknown, shape: Shape, path = '$'): string[] {
  if (typeof shape === 'string') {
    const allowed = shape.split('|');
    const actual = typeOf(value);
    return allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'))
      ? []
      : [`${path}: ${actual}, expected ${shape}`];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: ${typeOf(value)}, expected array`];
    return value.flatMap((item, i) => checkShape(item, shape[0], `${path}[${i}]`));
  }
  if (typeOf(value) !== 'object') return [`${path}: ${typeOf(value)}, expected object`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  const declared = new Set(Object.keys(shape).map((k) => k.replace(/\?$/, '')));
  for (const [key, fieldShape] of Object.entries(shape)) {
    const optional = key.endsWith('?');
    const name = key.replace(/\?$/, '');
    if (!(name in record)) {
      if (!optional) problems.push(`${path}.${name}: missing`);
      continue;
    }
    problems.push(...checkShape(record[name], fieldShape, `${path}.${name}`));
  }
  for (const key of Object.keys(record)) if (!declared.has(key)) problems.push(`${path}.${key}: not declared`);
  return problems;
}

/** Volatile fields (timing) removed before comparing the two hosts. */
function stable(value: any): any {
  const copy = structuredClone(value);
  if (copy && typeof copy === 'object' && 'processing_time_ms' in copy) copy.processing_time_ms = 0;
  return copy;
}

interface Case {
  tool: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  args: Record<string, unknown>;
}

let web: SandboxWeb;
let quarry: RunningQuarry;
let client: Client;
let dataDir: string;
let nadellaId = '';

async function http(c: Case): Promise<{ status: number; body: any }> {
  if (c.method === 'POST') return quarry.post(c.path, c.args);
  if (c.method === 'GET') {
    const query = Object.entries(c.args)
      .filter(([k]) => !c.path.includes(`:${k}`))
      .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`)
      .join('&');
    return quarry.get(fill(c.path, c.args) + (query ? `?${query}` : ''));
  }
  const res = await quarry.server.inject({
    method: 'DELETE',
    url: fill(c.path, c.args),
    headers: { 'x-api-key': TEST_KEY },
  });
  return { status: res.statusCode, body: res.json() };
}

function fill(path: string, args: Record<string, unknown>): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => String(args[name]));
}

async function mcp(c: Case): Promise<{ isError: boolean; structured: any; text: string }> {
  const result = await client.callTool({ name: c.tool, arguments: c.args });
  return {
    isError: Boolean(result.isError),
    structured: result.structuredContent,
    text: (result.content as Array<{ text: string }>)[0]?.text ?? '',
  };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-kg-contract-'));
  // The stdio MCP host is the local admin, on the installation's graph: the HTTP key is an admin too, so both read one graph.
  quarry = await startQuarry(web, { dataDir }, { apiKeys: [], adminApiKeys: [TEST_KEY] });
  const configPath = join(dataDir, 'quarry.config.json');
  writeFileSync(configPath, JSON.stringify({ ...(await sandboxConfig(web, dataDir)), logLevel: 'warn' }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(PACKAGE_ROOT, 'dist/hosts/cli/main.js'), 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, QUARRY_CONFIG: configPath },
    stderr: 'pipe',
  });
  client = new Client({ name: 'quarry-contract', version: '1.0.0' });
  await client.connect(transport);
  const extracted = await quarry.post('/api/v1/knowledge/extract', {
    text: TEXT,
    source_url: 'https://contract.example/1',
  });
  nadellaId = extracted.body.entities.find((e: any) => e.name === 'Satya Nadella').id;
}, 60_000);

afterAll(async () => {
  await client?.close();
  await quarry?.close();
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('knowledge contract: the same JSON over HTTP and MCP, fields typed', () => {
  const reads = (): Case[] => [
    { tool: 'knowledge_search', method: 'POST', path: '/api/v1/knowledge/search', args: { query: 'Microsoft' } },
    {
      tool: 'knowledge_search',
      method: 'POST',
      path: '/api/v1/knowledge/search',
      args: { query: 'planetary scientist', entity_types: ['person'], include_relationships: false },
    },
    { tool: 'knowledge_people', method: 'POST', path: '/api/v1/knowledge/people', args: { query: 'Lucas Paganini' } },
    {
      tool: 'knowledge_people',
      method: 'POST',
      path: '/api/v1/knowledge/people',
      args: { query: 'Microsoft', role: 'chief executive' },
    },
    {
      tool: 'knowledge_entity',
      method: 'GET',
      path: '/api/v1/knowledge/entities/:entity_id',
      args: { entity_id: nadellaId },
    },
    { tool: 'knowledge_graph', method: 'GET', path: '/api/v1/knowledge/graph', args: { limit: 50 } },
    {
      tool: 'knowledge_graph',
      method: 'GET',
      path: '/api/v1/knowledge/graph',
      args: { entity_types: ['person', 'organization'], limit: 3 },
    },
  ];

  it('answers every read identically on both hosts, with typed fields', async () => {
    for (const c of reads()) {
      const [overHttp, overMcp] = [await http(c), await mcp(c)];
      expect(overHttp.status, `${c.tool} ${JSON.stringify(c.args)}`).toBe(200);
      expect(overMcp.isError, overMcp.text).toBe(false);
      expect(overMcp.structured).toEqual(overHttp.body);
      expect(checkShape(overHttp.body, SHAPES[c.tool]!)).toEqual([]);
    }
  });

  it('extracts identically on both hosts (store: false, timing aside), with typed fields', async () => {
    const c: Case = {
      tool: 'knowledge_extract',
      method: 'POST',
      path: '/api/v1/knowledge/extract',
      args: { text: TEXT, store: false, published_date: '2025-01-02' },
    };
    const [overHttp, overMcp] = [await http(c), await mcp(c)];
    expect(overHttp.status).toBe(200);
    expect(checkShape(overHttp.body, SHAPES.knowledge_extract!)).toEqual([]);
    const clean = (body: any) => ({
      ...stable(body),
      entities: body.entities.map((e: any) => ({ ...e, metadata: { ...e.metadata, created_at: '', updated_at: '' } })),
    });
    expect(clean(overMcp.structured)).toEqual(clean(overHttp.body));
    expect(overHttp.body.entities.every((e: any) => e.metadata.sources[0].date === '2025-01-02')).toBe(true);
  });

  it('deletes on either host with the same answer, then both say 404', async () => {
    const made = await quarry.post('/api/v1/knowledge/extract', {
      text: 'Dataminr acquires ThreatConnect. Dataminr is based in New York.',
    });
    const [first, second] = made.body.entities.map((e: any) => e.id);
    const overHttp = await http({
      tool: 'knowledge_delete_entity',
      method: 'DELETE',
      path: '/api/v1/knowledge/entities/:entity_id',
      args: { entity_id: first },
    });
    const overMcp = await mcp({
      tool: 'knowledge_delete_entity',
      method: 'DELETE',
      path: '/api/v1/knowledge/entities/:entity_id',
      args: { entity_id: second },
    });
    expect(overHttp.body).toEqual({ deleted: true, entity_id: first });
    expect(overMcp.structured).toEqual({ deleted: true, entity_id: second });
    expect(checkShape(overHttp.body, SHAPES.knowledge_delete_entity!)).toEqual([]);
    const goneHttp = await http({
      tool: 'knowledge_entity',
      method: 'GET',
      path: '/api/v1/knowledge/entities/:entity_id',
      args: { entity_id: second },
    });
    const goneMcp = await mcp({
      tool: 'knowledge_entity',
      method: 'GET',
      path: '/api/v1/knowledge/entities/:entity_id',
      args: { entity_id: first },
    });
    expect(goneHttp.status).toBe(404);
    expect(goneMcp.isError).toBe(true);
    expect(goneMcp.text).toContain('NOT_FOUND');
  });
});

describe('knowledge contract: each bound on both sides, on both hosts', () => {
  const bounds: Array<{ c: () => Case; field: string; ok: unknown[]; refused: unknown[] }> = [
    {
      c: () => ({
        tool: 'knowledge_search',
        method: 'POST',
        path: '/api/v1/knowledge/search',
        args: { query: 'Microsoft' },
      }),
      field: 'max_results',
      ok: [1, 100],
      refused: [0, 101],
    },
    {
      c: () => ({
        tool: 'knowledge_people',
        method: 'POST',
        path: '/api/v1/knowledge/people',
        args: { query: 'Nadella' },
      }),
      field: 'max_results',
      ok: [1, 100],
      refused: [0, 101],
    },
    {
      c: () => ({ tool: 'knowledge_graph', method: 'GET', path: '/api/v1/knowledge/graph', args: {} }),
      field: 'limit',
      ok: [1, 1000],
      refused: [0, 1001],
    },
    {
      c: () => ({ tool: 'knowledge_search', method: 'POST', path: '/api/v1/knowledge/search', args: {} }),
      field: 'query',
      ok: ['M', 'x'.repeat(500)],
      refused: ['', 'x'.repeat(501)],
    },
    {
      c: () => ({
        tool: 'knowledge_extract',
        method: 'POST',
        path: '/api/v1/knowledge/extract',
        args: { store: false },
      }),
      field: 'text',
      ok: ['Apple', `Apple ${'a'.repeat(99_994)}`],
      refused: [' ', 'b'.repeat(100_001)],
    },
  ];

  for (const bound of bounds) {
    it(`${bound.c().tool} ${bound.field}: accepts ${bound.ok.map((v) => (String(v).length > 12 ? `${String(v).length} chars` : JSON.stringify(v))).join(' and ')}, refuses one past each end`, async () => {
      for (const value of bound.ok) {
        const c = bound.c();
        c.args = { ...c.args, [bound.field]: value };
        expect((await http(c)).status, `${bound.field}=${String(value).slice(0, 20)}`).toBe(200);
        expect((await mcp(c)).isError).toBe(false);
      }
      for (const value of bound.refused) {
        const c = bound.c();
        c.args = { ...c.args, [bound.field]: value };
        const overHttp = await http(c);
        expect(overHttp.status).toBe(400);
        expect(overHttp.body.error.code).toBe('INVALID_INPUT');
        expect(overHttp.body.error.message).toContain(bound.field);
        const overMcp = await mcp(c);
        expect(overMcp.isError).toBe(true);
        expect(overMcp.text).toContain(bound.field);
      }
    }, 60_000);
  }
});
