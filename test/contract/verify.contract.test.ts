/**
 * The Verify API's contract, self-contained: every field of every answer
 * with its type and nullability, each bound accepted on its edge and refused
 * one step past it, each enum value (inputs accepted, outputs produced), and
 * HTTP and MCP (the built package over stdio) giving the same JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeLayers, type ConfigInput } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { BIAS_RATINGS, FACTUAL_RATINGS, SOURCE_CATEGORIES } from '../../plugins/verify/credibility/labels.js';
import { sandboxConfig, startQuarry, type RunningQuarry } from '../e2e/harness.js';
import { recordProgress } from '../e2e/mcp-progress.js';
import { CLAIM_GROUPS, claimEngines, serveClaimWeb } from '../sandbox/claim-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';

const HANDMADE_MBFC = join(PACKAGE_ROOT, 'plugins', 'verify', 'credibility', 'fixtures', 'handmade-mbfc.tsv');

let web: SandboxWeb;
let quarry: RunningQuarry;
let scratch: string;
let client: Client;
/** Every claim answer of this file (HTTP and MCP), for the snippet check at the end. */
const claimAnswers: any[] = [];

function contractConfig(webUrl: string): ConfigInput {
  return {
    customEngines: claimEngines(webUrl, CLAIM_GROUPS),
    search: { defaultEngines: ['find_eiffel'] },
    credibility: { ratingsFiles: [{ path: HANDMADE_MBFC, date: '2020-07-01' }] },
  };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  serveClaimWeb(web);
  quarry = await startQuarry(web, contractConfig(web.url));
  scratch = mkdtempSync(join(tmpdir(), 'quarry-verify-contract-'));
  const configPath = join(scratch, 'quarry.config.json');
  writeFileSync(
    configPath,
    JSON.stringify(
      mergeLayers(
        { ...(await sandboxConfig(web, scratch)), logLevel: 'warn' },
        contractConfig(web.url) as Record<string, unknown>,
      ),
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(PACKAGE_ROOT, 'dist/hosts/cli/main.js'), 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: scratch, QUARRY_CONFIG: configPath },
    stderr: 'pipe',
  });
  client = new Client({ name: 'verify-contract', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await quarry?.close();
  await web?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
type Shape = Record<string, { type: FieldType; nullable?: boolean; optional?: boolean }>;

const CLAIM_SHAPE: Shape = {
  claim: { type: 'string' },
  verdict: { type: 'string' },
  confidence: { type: 'number' },
  summary: { type: 'string' },
  supporting_evidence: { type: 'array' },
  contradicting_evidence: { type: 'array' },
  key_facts: { type: 'array' },
  nuances: { type: 'string' },
  sources_checked: { type: 'integer' },
  verification_time_ms: { type: 'integer' },
  model_used: { type: 'string' },
  facts: { type: 'array' },
  queries: { type: 'array' },
  engines_failed: { type: 'array' },
};
const EVIDENCE_SHAPE: Shape = {
  title: { type: 'string' },
  url: { type: 'string' },
  snippet: { type: 'string' },
  stance: { type: 'string' },
  credibility_score: { type: 'number' },
  fact: { type: 'string' },
  strength: { type: 'number' },
};
const FACT_SHAPE: Shape = {
  fact: { type: 'string' },
  central: { type: 'boolean' },
  status: { type: 'string' },
  support: { type: 'number' },
  contradiction: { type: 'number' },
};
const SOURCE_SHAPE: Shape = {
  domain: { type: 'string' },
  credibility_score: { type: 'number' },
  category: { type: 'string' },
  bias_rating: { type: 'string' },
  factual_reporting: { type: 'string' },
  notes: { type: 'string' },
  last_updated: { type: 'string' },
  rated: { type: 'boolean' },
  matched_domain: { type: 'string', nullable: true },
};
const BATCH_SHAPE: Shape = {
  job_id: { type: 'string' },
  status: { type: 'string' },
  claims_count: { type: 'integer' },
  results: { type: 'array' },
  poll_url: { type: 'string' },
  claims_completed: { type: 'integer' },
  created_at: { type: 'string' },
  updated_at: { type: 'string' },
  error: { type: 'object', optional: true },
};
const RESULT_SHAPE: Shape = {
  claim: { type: 'string' },
  verdict: { type: 'string' },
  confidence: { type: 'number' },
  summary: { type: 'string' },
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function expectShape(value: Record<string, unknown>, shape: Shape, where: string): void {
  expect(Object.keys(value).sort(), where).toEqual(
    Object.keys(shape)
      .filter((k) => !shape[k]!.optional || k in value)
      .sort(),
  );
  for (const [field, spec] of Object.entries(shape)) {
    if (!(field in value)) continue;
    const actual = typeOf(value[field]);
    if (actual === 'null') expect(spec.nullable, `${where}.${field} is null`).toBe(true);
    else if (spec.type === 'number') expect(['number', 'integer'], `${where}.${field}`).toContain(actual);
    else expect(actual, `${where}.${field}`).toBe(spec.type);
  }
}

function expectClaimAnswer(body: any): void {
  claimAnswers.push(body);
  expectShape(body, CLAIM_SHAPE, 'claim');
  for (const e of [...body.supporting_evidence, ...body.contradicting_evidence])
    expectShape(e, EVIDENCE_SHAPE, 'evidence');
  for (const f of body.facts) expectShape(f, FACT_SHAPE, 'fact');
  for (const k of body.key_facts) expect(typeof k).toBe('string');
  expect(body.confidence).toBeGreaterThanOrEqual(0);
  expect(body.confidence).toBeLessThanOrEqual(1);
}

async function callTool(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect((result.content as Array<{ type: string; text: string }>)[0]!.text.length).toBeGreaterThan(10);
  return result.structuredContent;
}

const withoutTiming = ({ verification_time_ms: _t, ...rest }: any) => rest;

describe('verify/claim', () => {
  it('every verdict value, each answer of the documented shape, and the same JSON over HTTP and MCP', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ claim: 'The Eiffel Tower was completed in 1889' }, 'true'],
      [{ claim: 'The Eiffel Tower is 500 metres tall' }, 'false'],
      [
        { claim: 'The Eiffel Tower was completed in 1889, and it is painted with gold leaf every year' },
        'partially_true',
      ],
      [{ claim: 'Arctic sea ice grew in 2013', engines: ['find_seaice'] }, 'misleading'],
      [{ claim: 'Octopuses have three hearts and blue blood', engines: ['find_unrelated'] }, 'unverifiable'],
    ];
    for (const [body, verdict] of cases) {
      const http = await quarry.post('/api/v1/verify/claim', body);
      expect(http.status).toBe(200);
      expectClaimAnswer(http.body);
      expect(http.body.verdict, JSON.stringify(body)).toBe(verdict);
      const mcp = await callTool('verify_claim', body);
      expectClaimAnswer(mcp);
      expect(withoutTiming(mcp)).toEqual(withoutTiming(http.body));
    }
  });

  it('accepts each depth and the bounds of every field, refuses one step past them (HTTP 400, MCP error) naming the field', async () => {
    const unrelated = { engines: ['find_unrelated'] };
    const accepted: Array<Record<string, unknown>> = [
      { claim: 'x', ...unrelated },
      { claim: 'x'.repeat(2000), ...unrelated },
      { claim: 'x', depth: 'quick', ...unrelated },
      { claim: 'x', depth: 'thorough', ...unrelated },
      { claim: 'x', include_sources: false, ...unrelated },
      { claim: 'x', timeout: 5, ...unrelated },
      { claim: 'x', timeout: 120, ...unrelated },
      { claim: 'x', engines: Array.from({ length: 20 }, () => 'find_unrelated') },
    ];
    for (const body of accepted)
      expect((await quarry.post('/api/v1/verify/claim', body)).status, JSON.stringify(body).slice(0, 80)).toBe(200);
    const refused: Array<[Record<string, unknown>, string]> = [
      [{}, 'claim'],
      [{ claim: '' }, 'claim'],
      [{ claim: 'x'.repeat(2001) }, 'claim'],
      [{ claim: 'x', depth: 'deep' }, 'depth'],
      [{ claim: 'x', include_sources: 'true' }, 'include_sources'],
      [{ claim: 'x', timeout: 4 }, 'timeout'],
      [{ claim: 'x', timeout: 121 }, 'timeout'],
      [{ claim: 'x', engines: [] }, 'engines'],
      [{ claim: 'x', engines: Array.from({ length: 21 }, () => 'find_unrelated') }, 'engines'],
    ];
    for (const [body, field] of refused) {
      const http = await quarry.post('/api/v1/verify/claim', body);
      expect(http.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(http.body.error.message).toMatch(field);
      const mcp = await client.callTool({ name: 'verify_claim', arguments: body });
      expect(mcp.isError).toBe(true);
      expect((mcp.content as Array<{ text: string }>)[0]!.text).toMatch(field);
    }
    // An unknown field: ignored over HTTP and named in X-Quarry-Ignored-Fields; MCP's schema stays strict.
    const ignored = await quarry.post('/api/v1/verify/claim', { claim: 'x', surprise: 1, ...unrelated });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-quarry-ignored-fields')).toBe('surprise');
    const strict = await client.callTool({ name: 'verify_claim', arguments: { claim: 'x', surprise: 1 } });
    expect(strict.isError).toBe(true);
    expect((strict.content as Array<{ text: string }>)[0]!.text).toMatch('surprise');
  });
  it('sends a progress notification per step over MCP, in order', async () => {
    const recorder = recordProgress(client);
    const result = await client
      .callTool({ name: 'verify_claim', arguments: { claim: 'The Eiffel Tower was completed in 1889' } }, undefined, {
        onprogress: recorder.onprogress,
      })
      .finally(recorder.stop);
    const progress = recorder.seen;
    expect(result.isError).toBeFalsy();
    // Every step arrives: the MCP host sends the answer only after the last notification is out (hosts/mcp/server.ts).
    const steps = ['search', 'read', 'decompose', 'retrieve', 'judge', 'aggregate'];
    expect(progress.map((p) => p.message?.split(':')[0])).toEqual(steps);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every((p) => p.total === 6)).toBe(true);
  });
});

describe('verify/source', () => {
  it('produces every category, bias and factual value the supported rating formats carry, each answer of the documented shape', async () => {
    const urls = [
      'https://www.reuters.com/',
      'https://www.cdc.gov/',
      'https://physics.unrated-university.edu/',
      'https://unrated-store.shop/',
      'https://somebody.blogspot.com/',
      'https://www.theonion.com/',
      'https://unrated-example.org/',
      ...[
        'far-left',
        'left',
        'left-center',
        'center',
        'right-center',
        'right',
        'far-right',
        'very-high',
        'mostly',
        'very-low',
      ].map((d) => `https://example-${d}.test/`),
    ];
    const seen = { category: new Set<string>(), bias_rating: new Set<string>(), factual_reporting: new Set<string>() };
    for (const url of urls) {
      const http = await quarry.post('/api/v1/verify/source', { url });
      expect(http.status).toBe(200);
      expectShape(http.body, SOURCE_SHAPE, url);
      seen.category.add(http.body.category);
      seen.bias_rating.add(http.body.bias_rating);
      seen.factual_reporting.add(http.body.factual_reporting);
      expect(await callTool('verify_source', { url })).toEqual(
        http.body.rated ? http.body : { ...http.body, last_updated: expect.any(String) },
      );
    }
    expect([...seen.category].sort()).toEqual([...SOURCE_CATEGORIES].sort());
    expect([...seen.bias_rating].sort()).toEqual([...BIAS_RATINGS].sort());
    expect([...seen.factual_reporting].sort()).toEqual([...FACTUAL_RATINGS].sort());
  });

  it('refuses a URL that is not http(s), naming the field, and names an ignored unknown field', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://x.org/' }, 'url'],
      [{}, 'url'],
    ] as const) {
      const http = await quarry.post('/api/v1/verify/source', body);
      expect(http.status).toBe(400);
      expect(http.body.error.message).toMatch(field);
    }
    const ignored = await quarry.post('/api/v1/verify/source', { url: 'https://x.org/', depth: 'quick' });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-quarry-ignored-fields')).toBe('depth');
  });
});

describe('verify/batch', () => {
  it('answers the documented shape on both statuses, over HTTP and MCP, with progress notifications per claim and per step', async () => {
    const small = await quarry.post('/api/v1/verify/batch', { claims: ['The Eiffel Tower was completed in 1889'] });
    expect(small.status).toBe(200);
    expectShape(small.body, BATCH_SHAPE, 'batch');
    expect(small.body.status).toBe('completed');
    for (const r of small.body.results) expectShape(r, RESULT_SHAPE, 'result');
    const polled = await quarry.get(small.body.poll_url);
    expect(polled.body).toEqual(small.body);

    const recorder = recordProgress(client);
    const mcp = await client
      .callTool(
        {
          name: 'verify_batch',
          arguments: { claims: ['The Eiffel Tower was completed in 1889', 'The Eiffel Tower is 500 metres tall'] },
        },
        undefined,
        { onprogress: recorder.onprogress },
      )
      .finally(recorder.stop);
    const progress = recorder.seen;
    const out = mcp.structuredContent as any;
    expectShape(out, BATCH_SHAPE, 'mcp batch');
    expect(out.status).toBe('completed');
    expect(out.results.map((r: any) => r.verdict)).toEqual(['true', 'false']);
    const messages = progress.map((p) => p.message ?? '');
    // Every step of every claim arrives, in order (the MCP host flushes notifications before the answer).
    const steps = ['search', 'read', 'decompose', 'retrieve', 'judge', 'aggregate'];
    for (const claim of [1, 2]) {
      const seen = messages
        .filter((m) => m.startsWith(`claim ${claim} of 2, `))
        .map((m) => m.split(', ')[1]!.split(':')[0]!);
      expect(seen, `claim ${claim}`).toEqual(steps);
    }
    expect(messages.filter((m) => /^claim \d of 2 done/.test(m)).length).toBe(2);
    expect(progress.every((p) => p.total === 12)).toBe(true);
    // Two claims run side by side; progress still only grows, up to every step of both.
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThanOrEqual(progress[i - 1]!.progress);
    expect(progress.at(-1)!.progress).toBeGreaterThanOrEqual(9);
    // The MCP server is its own process with its own job store: its poll answers what its batch answered.
    expect(await callTool('verify_batch_status', { job_id: out.job_id })).toEqual(out);

    const processing = await quarry.post('/api/v1/verify/batch', {
      claims: ['The Eiffel Tower stands in Paris'],
      wait_seconds: 0,
    });
    expectShape(processing.body, BATCH_SHAPE, 'processing batch');
    expect(['processing', 'completed']).toContain(processing.body.status);
  });

  it('accepts 1 and 10 claims and wait_seconds 0 and 60, refuses 0 and 11 claims, wait_seconds -1 and 61, and bad job ids', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `The Eiffel Tower claim number ${i}`);
    expect(
      (await quarry.post('/api/v1/verify/batch', { claims: ten, wait_seconds: 0, engines: ['find_unrelated'] })).status,
    ).toBe(200);
    expect(
      (await quarry.post('/api/v1/verify/batch', { claims: ['x'], wait_seconds: 60, engines: ['find_unrelated'] }))
        .status,
    ).toBe(200);
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ claims: [] }, 'claims'],
      [{ claims: [...ten, 'one more'] }, 'claims'],
      [{ claims: ['x'], wait_seconds: -1 }, 'wait_seconds'],
      [{ claims: ['x'], wait_seconds: 61 }, 'wait_seconds'],
      [{ claims: ['x'], depth: 'deep' }, 'depth'],
      [{ claims: 'x' }, 'claims'],
    ];
    for (const [body, field] of refused) {
      const http = await quarry.post('/api/v1/verify/batch', body);
      expect(http.status, JSON.stringify(body)).toBe(400);
      expect(http.body.error.message).toMatch(field);
    }
    expect((await quarry.get(`/api/v1/verify/batch/job_${'a'.repeat(24)}`)).status).toBe(404);
    expect((await quarry.get('/api/v1/verify/batch/job_123')).status).toBe(400);
    const mcp = await client.callTool({ name: 'verify_batch_status', arguments: { job_id: `job_${'a'.repeat(24)}` } });
    expect(mcp.isError).toBe(true);
  });
});

describe('evidence', () => {
  it('every snippet of every claim answer above occurs in the page at its url', async () => {
    const items = claimAnswers.flatMap((a) => [...a.supporting_evidence, ...a.contradicting_evidence]);
    expect(items.length).toBeGreaterThan(8);
    const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const item of items) {
      const { document } = parseHTML(await (await fetch(item.url)).text());
      expect(squash(document.body.textContent ?? ''), item.url).toContain(squash(item.snippet));
    }
  });
});
