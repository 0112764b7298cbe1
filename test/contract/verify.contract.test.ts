/**
 * The Verify API's contract on the one contract helper (contract-suite.ts): every field of every
 * answer with its type and nullability (closed tables), each bound accepted on its edge and refused
 * one step past it, each enum value (inputs accepted, outputs produced), and HTTP and MCP — the built
 * package over stdio, with its own data — giving the same JSON. Verdicts, progress, the batch job and
 * the evidence snippets are checked below the tables.
 */
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { BIAS_RATINGS, FACTUAL_RATINGS, SOURCE_CATEGORIES } from '../../plugins/verify/credibility/labels.js';
import { recordProgress } from '../e2e/mcp-progress.js';
import { CLAIM_GROUPS, claimEngines, serveClaimWeb } from '../sandbox/claim-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, expectFields, field, startContractHosts, type RouteContract } from './contract-suite.js';
import type { FieldSpec } from './response-shape.js';

const HANDMADE_MBFC = join(PACKAGE_ROOT, 'plugins', 'verify', 'credibility', 'fixtures', 'handmade-mbfc.tsv');

let web: SandboxWeb;
/** Every claim answer of this file (HTTP and MCP), for the snippet check at the end. */
const claimAnswers: any[] = [];

function contractConfig(webUrl: string): ConfigInput {
  return {
    customEngines: claimEngines(webUrl, CLAIM_GROUPS),
    search: { defaultEngines: ['find_eiffel'] },
    credibility: { ratingsFiles: [{ path: HANDMADE_MBFC, date: '2020-07-01' }] },
  };
}

const evidence = (prefix: string): FieldSpec[] => [
  field(prefix.slice(0, -2), 'array'),
  ...(['title', 'url', 'snippet', 'stance', 'fact'] as const).map((name) =>
    field(`${prefix}.${name}`, 'string', { listMayBeEmpty: true }),
  ),
  field(`${prefix}.credibility_score`, 'number', { listMayBeEmpty: true }),
  field(`${prefix}.strength`, 'number', { listMayBeEmpty: true }),
];
const claimResponse: FieldSpec[] = [
  field('claim', 'string'),
  field('verdict', 'string', { oneOf: ['true', 'false', 'partially_true', 'unverifiable', 'misleading'] }),
  field('confidence', 'number'),
  field('summary', 'string'),
  ...evidence('supporting_evidence[]'),
  ...evidence('contradicting_evidence[]'),
  field('key_facts', 'array'),
  field('nuances', 'string'),
  field('sources_checked', 'integer'),
  field('verification_time_ms', 'integer'),
  field('model_used', 'string'),
  field('facts', 'array'),
  field('facts[].fact', 'string', { listMayBeEmpty: true }),
  field('facts[].central', 'boolean', { listMayBeEmpty: true }),
  field('facts[].status', 'string', { listMayBeEmpty: true }),
  field('facts[].support', 'number', { listMayBeEmpty: true }),
  field('facts[].contradiction', 'number', { listMayBeEmpty: true }),
  field('queries', 'array'),
  field('engines_failed', 'array'),
];
const sourceResponse: FieldSpec[] = [
  field('domain', 'string'),
  field('credibility_score', 'number'),
  field('category', 'string', { oneOf: SOURCE_CATEGORIES }),
  field('bias_rating', 'string', { oneOf: BIAS_RATINGS }),
  field('factual_reporting', 'string', { oneOf: FACTUAL_RATINGS }),
  field('notes', 'string'),
  field('last_updated', 'string'),
  field('rated', 'boolean'),
  field('matched_domain', 'string|null'),
];
const batchResponse: FieldSpec[] = [
  field('job_id', 'string'),
  field('status', 'string'),
  field('claims_count', 'integer'),
  field('results', 'array'),
  field('results[].claim', 'string', { listMayBeEmpty: true }),
  field('results[].verdict', 'string', { listMayBeEmpty: true }),
  field('results[].confidence', 'number', { listMayBeEmpty: true }),
  field('results[].summary', 'string', { listMayBeEmpty: true }),
  field('poll_url', 'string'),
  field('claims_completed', 'integer'),
  field('created_at', 'string'),
  field('updated_at', 'string'),
  field('error', 'object', { optional: true }),
];

const unrelated = { engines: ['find_unrelated'] };
const eiffel = { claim: 'The Eiffel Tower was completed in 1889' };

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/verify/claim',
    tool: 'verify_claim',
    minimal: eiffel,
    full: { ...eiffel, depth: 'thorough', include_sources: true, engines: ['find_eiffel'], timeout: 60 },
    base: { claim: 'x', ...unrelated },
    bounds: [
      { field: 'claim', kind: 'string', min: 1, max: 2000 },
      { field: 'timeout', kind: 'number', min: 5, max: 120 },
      { field: 'engines', kind: 'array', min: 1, max: 20, item: () => 'find_unrelated' },
    ],
    enums: [
      { field: 'depth', values: ['quick', 'thorough'] },
      { field: 'include_sources', values: [false, true] },
    ],
    rejects: [
      { name: 'a body without a claim', body: {}, field: 'claim' },
      {
        name: 'include_sources that is not a boolean',
        body: { claim: 'x', include_sources: 'true' },
        field: 'include_sources',
      },
    ],
    response: claimResponse,
    closed: true,
    volatile: ['verification_time_ms'],
    invariants: [
      {
        name: 'confidence is a share',
        check(body) {
          claimAnswers.push(body);
          expect(body.confidence).toBeGreaterThanOrEqual(0);
          expect(body.confidence).toBeLessThanOrEqual(1);
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/verify/source',
    tool: 'verify_source',
    minimal: { url: 'https://www.reuters.com/' },
    rejects: [
      { name: 'a URL that is not http(s)', body: { url: 'ftp://x.org/' }, field: 'url' },
      { name: 'a body without a URL', body: {}, field: 'url' },
    ],
    response: sourceResponse,
    closed: true,
  },
];

const contract = describeContract(
  'verify',
  async () => {
    web = await startSandboxWeb();
    serveClaimWeb(web);
    const hosts = await startContractHosts(web, contractConfig(web.url), { mcp: 'stdio' });
    const close = hosts.close;
    return { ...hosts, close: () => close().finally(() => web.close()) };
  },
  routes,
);

/** Its best line states 5 of its 11 words (45 %): partially true by the offline rule. */
const PARTLY_STATED =
  'The Eiffel Tower was completed in 1889, and it is painted with gold leaf by hand every single year';

const withoutTiming = ({ verification_time_ms: _t, ...rest }: any) => rest;

describe('verify/claim', () => {
  // Offline (these hosts have no model) the verdict is the word-overlap rule's, which gives three of the five values;
  // false and misleading need a model to judge (test/e2e/verify.test.ts, with a scripted one).
  it('gives every verdict value the offline default gives, the same JSON over HTTP and MCP', async () => {
    const { http, mcp } = contract.hosts();
    const cases: Array<[Record<string, unknown>, string]> = [
      [eiffel, 'true'],
      [{ claim: PARTLY_STATED }, 'partially_true'],
      [{ claim: 'Octopuses have three hearts and blue blood', engines: ['find_unrelated'] }, 'unverifiable'],
    ];
    for (const [body, verdict] of cases) {
      const overHttp = await http('POST', '/api/v1/verify/claim', body);
      expect(overHttp.status).toBe(200);
      expectFields(overHttp.body, claimResponse, 'claim answer');
      expect(overHttp.body.verdict, JSON.stringify(body)).toBe(verdict);
      const overMcp = await mcp('verify_claim', body);
      expect(overMcp.isError, overMcp.text).toBe(false);
      expect(overMcp.text.length).toBeGreaterThan(10);
      expect(withoutTiming(overMcp.structured)).toEqual(withoutTiming(overHttp.body));
      claimAnswers.push(overHttp.body, overMcp.structured);
    }
  });

  it('ignores an unknown field over HTTP, naming it in X-Quarry-Ignored-Fields; MCP refuses it, naming it', async () => {
    const { quarry, mcp } = contract.hosts();
    const ignored = await quarry.post('/api/v1/verify/claim', { claim: 'x', surprise: 1, ...unrelated });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-quarry-ignored-fields')).toBe('surprise');
    const strict = await mcp('verify_claim', { claim: 'x', surprise: 1 });
    expect(strict.isError).toBe(true);
    expect(strict.text).toMatch('surprise');
  });

  it('sends a progress notification per step over MCP, in order', async () => {
    const { client } = contract.hosts();
    const recorder = recordProgress(client);
    const result = await client
      .callTool({ name: 'verify_claim', arguments: eiffel }, undefined, { onprogress: recorder.onprogress })
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
  it('produces every category, bias and factual value the supported rating formats carry, the same over MCP', async () => {
    const { http, mcp } = contract.hosts();
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
      const overHttp = await http('POST', '/api/v1/verify/source', { url });
      expect(overHttp.status).toBe(200);
      expectFields(overHttp.body, sourceResponse, url);
      seen.category.add(overHttp.body.category);
      seen.bias_rating.add(overHttp.body.bias_rating);
      seen.factual_reporting.add(overHttp.body.factual_reporting);
      expect((await mcp('verify_source', { url })).structured).toEqual(
        overHttp.body.rated ? overHttp.body : { ...overHttp.body, last_updated: expect.any(String) },
      );
    }
    expect([...seen.category].sort()).toEqual([...SOURCE_CATEGORIES].sort());
    expect([...seen.bias_rating].sort()).toEqual([...BIAS_RATINGS].sort());
    expect([...seen.factual_reporting].sort()).toEqual([...FACTUAL_RATINGS].sort());
  });

  it('names an ignored unknown field', async () => {
    const ignored = await contract
      .hosts()
      .quarry.post('/api/v1/verify/source', { url: 'https://x.org/', depth: 'quick' });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-quarry-ignored-fields')).toBe('depth');
  });
});

describe('verify/batch', () => {
  it('answers the documented shape on both statuses, over HTTP and MCP, with progress notifications per claim and per step', async () => {
    const { http, client } = contract.hosts();
    const small = await http('POST', '/api/v1/verify/batch', { claims: [eiffel.claim] });
    expect(small.status).toBe(200);
    expectFields(small.body, batchResponse, 'batch');
    expect(small.body.status).toBe('completed');
    const polled = await http('GET', small.body.poll_url, {});
    expect(polled.body).toEqual(small.body);

    const recorder = recordProgress(client);
    const overMcp = await client
      .callTool(
        {
          name: 'verify_batch',
          arguments: { claims: [eiffel.claim, PARTLY_STATED] },
        },
        undefined,
        { onprogress: recorder.onprogress },
      )
      .finally(recorder.stop);
    const progress = recorder.seen;
    const out = overMcp.structuredContent as any;
    expectFields(out, batchResponse, 'mcp batch');
    expect(out.status).toBe('completed');
    expect(out.results.map((r: any) => r.verdict)).toEqual(['true', 'partially_true']);
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
    const status = await contract.hosts().mcp('verify_batch_status', { job_id: out.job_id });
    expect(status.structured).toEqual(out);

    const processing = await http('POST', '/api/v1/verify/batch', {
      claims: ['The Eiffel Tower stands in Paris'],
      wait_seconds: 0,
    });
    expectFields(processing.body, batchResponse, 'processing batch');
    expect(['processing', 'completed']).toContain(processing.body.status);
  });

  it('accepts 1 and 10 claims and wait_seconds 0 and 60, refuses 0 and 11 claims, wait_seconds -1 and 61, and bad job ids', async () => {
    const { http, mcp } = contract.hosts();
    const ten = Array.from({ length: 10 }, (_, i) => `The Eiffel Tower claim number ${i}`);
    expect(
      (await http('POST', '/api/v1/verify/batch', { claims: ten, wait_seconds: 0, engines: ['find_unrelated'] }))
        .status,
    ).toBe(200);
    expect(
      (await http('POST', '/api/v1/verify/batch', { claims: ['x'], wait_seconds: 60, engines: ['find_unrelated'] }))
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
    for (const [body, name] of refused) {
      const answer = await http('POST', '/api/v1/verify/batch', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(name);
    }
    expect((await http('GET', `/api/v1/verify/batch/job_${'a'.repeat(24)}`, {})).status).toBe(404);
    expect((await http('GET', '/api/v1/verify/batch/job_123', {})).status).toBe(400);
    expect((await mcp('verify_batch_status', { job_id: `job_${'a'.repeat(24)}` })).isError).toBe(true);
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
