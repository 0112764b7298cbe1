/**
 * A seeded, bounded fuzz test over every route of /api/v1/openapi.json
 * (issue 17). Phase 1 sends invalid requests made from each route's own
 * schema — wrong types, values past every bound, forbidden keys, deep
 * nesting, broken JSON and UTF-8 — each checked invalid by the registry
 * first, so no handler (and no network) is reached. Phase 2 sends valid but
 * hostile input to the routes that work locally (chunking, tables,
 * highlights, URL discovery and scraping on the sandbox). Over the whole run: no 5xx,
 * and the event loop never stalls for more than 200 ms.
 *
 * Seed: QUARRY_FUZZ_SEED (default 17); a failure prints the seed and case.
 */
import { seededRandom } from '../../core/seeded-random.js';
import { findInputShapeProblem } from '../../core/input-shape.js';
import { declaredFields, prepareHttpInput } from '../../hosts/http/http-input.js';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyCapability } from '../../core/capability.js';
import { toJsonSchema } from '../../core/json-schema.js';
import { queryToInput } from '../../hosts/http/query-input.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

type Schema = Record<string, any>;

const SEED = Number(process.env.QUARRY_FUZZ_SEED ?? 17);
const MAX_STALL_MS = 200;

let web: SandboxWeb;
let quarry: RunningQuarry;
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
const stalls: string[] = [];
const confirmedStalls: string[] = [];
let longestStallMs = 0;

/**
 * Stalls of the event loop: its active time (event-loop utilisation) between
 * two 10 ms ticks, so time the OS kept an idle loop waiting is not counted.
 * Each stall of MAX_STALL_MS or more is tied to the request in flight.
 */
class StallWatch {
  longest = 0;
  readonly suspects: Array<{ ms: number; request: Prepared }> = [];
  private current: Prepared | null = null;
  private previous = performance.eventLoopUtilization();
  private readonly timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const active = now.active - this.previous.active;
    this.previous = now;
    this.longest = Math.max(this.longest, active);
    if (active >= MAX_STALL_MS && this.current && !this.suspects.some((s) => s.request === this.current))
      this.suspects.push({ ms: active, request: this.current });
  }, 10);

  async during<T>(request: Prepared, work: () => Promise<T>): Promise<T> {
    // The request stays "in flight" until the next one starts: the tick after its answer belongs to it.
    this.current = request;
    return work();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
const outcomes: Array<{ route: string; label: string; status: number; message: string; ms: number }> = [];

const rand = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const int = (min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

/** Valid sample values for fields whose pattern or meaning a schema walk cannot invent. */
function sampleFor(name: string, schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sampleFor(name, options.find((option: Schema) => option.type !== 'null') ?? options[0]);
  if (/url/.test(name) || schema.format === 'uri') return `${web.url}/fuzz-target`;
  if (name === 'request_id') return 'req_0123456789abcdef';
  if (/date/.test(name)) return '2024-01-01';
  if (name === 'language') return 'en';
  if (name === 'engines' || name === 'engine') return ['wikipedia'];
  switch (schema.type) {
    case 'string':
      return 'sample text about sourdough bread';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sampleFor(name.replace(/s$/, ''), schema.items ?? {}),
      );
    case 'object':
      return minimalObject(schema);
    default:
      return 'x';
  }
}

function minimalObject(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema.required ?? []) out[name] = sampleFor(name, schema.properties?.[name] ?? {});
  return out;
}

/** Values that break one property's schema: wrong types and every bound overstepped. */
function invalidValuesFor(schema: Schema): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [
    ['wrong type: object', { nested: { deeper: true } }],
    ['wrong type: array', [1, 'two', null]],
    ['null', null],
  ];
  const type = schema.type ?? (schema.anyOf ?? schema.oneOf ?? [])[0]?.type;
  if (type === 'string') {
    out.push(['wrong type: number', 12345]);
    if (schema.maxLength !== undefined && schema.maxLength <= 2_000_000)
      out.push([`longer than maxLength ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1)]);
    if (schema.minLength) out.push(['shorter than minLength', '']);
    if (schema.enum) out.push(['not in the enum', `not-${String(schema.enum[0])}`]);
    if (schema.pattern || schema.format) out.push(['not in the pattern/format', '\u0000\u{1F4A5} <script>'.repeat(3)]);
  } else if (type === 'integer' || type === 'number') {
    out.push(['wrong type: numeric string', '10']);
    if (schema.maximum !== undefined) out.push(['above maximum', schema.maximum + 1]);
    if (schema.minimum !== undefined) out.push(['below minimum', schema.minimum - 1]);
    if (type === 'integer') out.push(['not an integer', 1.5]);
    out.push(['huge', 1e308]);
  } else if (type === 'boolean') {
    out.push(['wrong type: "true"', 'true']);
  } else if (type === 'array') {
    out.push(['wrong type: string', 'a,b,c']);
    if (schema.maxItems !== undefined && schema.maxItems <= 100_000)
      out.push([
        `more than maxItems ${schema.maxItems}`,
        Array.from({ length: schema.maxItems + 1 }, (_, i) => (schema.items?.type === 'string' ? `item${i}` : i)),
      ]);
    if (schema.minItems) out.push(['fewer than minItems', []]);
  } else if (type === 'object') {
    out.push(['wrong type: string', 'not an object']);
    if (schema.maxProperties !== undefined)
      out.push([
        `more than maxProperties ${schema.maxProperties}`,
        Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])),
      ]);
  }
  return out;
}

/** A body as query parameters: every value as the text a URL carries. */
function asQuery(body: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries((body ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

interface Case {
  label: string;
  /** A JSON body, raw bytes, or query parameters. */
  body?: unknown;
  raw?: string | Buffer;
  query?: Record<string, string>;
  path?: string;
}

function deepValue(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { deeper: value } : [value];
  return value;
}

/** Invalid cases for one capability, each confirmed invalid by the registry before it is sent. */
function invalidCases(capability: AnyCapability, schema: Schema): Case[] {
  const minimal = minimalObject(schema);
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const cases: Case[] = [];
  for (const [name, property] of properties) {
    for (const [label, value] of invalidValuesFor(property))
      cases.push({ label: `${name}: ${label}`, body: { ...minimal, [name]: value } });
  }
  for (const name of schema.required ?? []) {
    const without = { ...minimal };
    delete without[name];
    cases.push({ label: `missing required ${name}`, body: without });
  }
  cases.push({
    label: '__proto__ key',
    raw: JSON.stringify(minimal).replace(/^\{/, '{"__proto__":{"polluted":true},'),
  });
  cases.push({
    label: 'constructor key, nested',
    body: { ...minimal, [properties[0]?.[0] ?? 'x']: { constructor: { prototype: {} } } },
  });
  cases.push({ label: 'nested 40 levels', body: { ...minimal, [properties[0]?.[0] ?? 'x']: deepValue(40) } });
  if (capability.http.method === 'POST') {
    cases.push({ label: 'nested 50,000 levels (raw)', raw: `{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}` });
    cases.push({ label: 'malformed JSON', raw: '{"query": "unterminated' });
    cases.push({
      label: 'invalid UTF-8',
      raw: Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
    });
    for (const body of ['[]', '42', '"text"', 'null', ''])
      cases.push({ label: `body ${body || '(empty)'}`, raw: body });
  }
  return cases.filter((c) => {
    if (c.raw !== undefined) return true;
    try {
      // GET input travels as text: judge it the way the HTTP host will read it.
      const raw =
        capability.http.method === 'POST'
          ? c.body
          : queryToInput(asQuery(c.body), toJsonSchema(capability.input, 'input'));
      // As the HTTP host reads it: the shape is checked on everything sent, then unknown top-level fields are dropped.
      if (findInputShapeProblem(raw)) return true;
      const { input } = prepareHttpInput(raw as Record<string, unknown>, capability, declaredFields(capability));
      quarry.app.registry.validate(capability, input);
      return false;
    } catch {
      return true;
    }
  });
}

beforeAll(async () => {
  web = await startSandboxWeb();
  web.addPage(
    '/fuzz-target',
    '<html><body><p>A page the fuzzer may point at.</p><a href="/fuzz-target?x=1">self</a></body></html>',
  );
  // The fuzzer sends far more than a client would: the rate limit (tested elsewhere) is lifted.
  quarry = await startQuarry(web, { rateLimitPerMinute: 1_000_000 });
});

afterAll(async () => {
  loopDelay.disable();
  await quarry?.close();
  await web?.close();
});

/** Every request prepared before any is sent, so building them costs the event loop nothing during the run. */
interface Prepared {
  capability: AnyCapability;
  label: string;
  path: string;
  init: RequestInit;
  expectError: boolean;
}

function prepare(capability: AnyCapability, c: Case, expectError: boolean): Prepared {
  const headers: Record<string, string> = { 'x-api-key': TEST_KEY };
  let path = capability.http.path;
  let init: RequestInit = { method: capability.http.method, headers };
  if (capability.http.method === 'POST') {
    headers['content-type'] = 'application/json';
    init = {
      ...init,
      body:
        typeof c.raw === 'string' || c.raw === undefined ? (c.raw ?? JSON.stringify(c.body)) : new Uint8Array(c.raw),
    };
  } else {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(asQuery(c.body))) {
      if (path.includes(`:${name}`)) path = path.replace(`:${name}`, encodeURIComponent(value));
      else params.append(name, value);
    }
    path = path.replace(/:([a-z_]+)/g, 'req_0123456789abcdef');
    if (c.raw !== undefined) params.append('__proto__', '1');
    if ([...params].length > 0) path += `?${params}`;
  }
  return { capability, label: c.label, path, init, expectError };
}

async function run(prepared: Prepared): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${quarry.url}${prepared.path}`, {
    ...prepared.init,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the assertions below say so.
  }
  return { status: response.status, body, ms: performance.now() - started };
}

function hostileCases(): Prepared[] {
  const byTool = (tool: string) => quarry.app.registry.byToolName(tool)!;
  const words = [
    'bread',
    'flour',
    'étoile',
    '水',
    '🍞',
    '<b>',
    '[x](javascript:y)',
    '#',
    '|',
    '```',
    '\u0000',
    '&lt;',
    'a'.repeat(600),
  ];
  const text = (size: number) => {
    const parts: string[] = [];
    let length = 0;
    while (length < size) {
      const part = pick(words) + pick([' ', ' ', '\n', '\n\n', '', '. ']);
      parts.push(part);
      length += part.length;
    }
    return parts.join('');
  };
  const tags = [
    'div',
    'table',
    'tr',
    'td',
    'th',
    'p',
    'li',
    'ul',
    'b',
    'a href="/x"',
    'svg',
    'path/',
    'td colspan=1000',
    'td rowspan=0',
    'tbody',
    'script',
  ];
  const soup = (size: number) => {
    let html = '';
    while (html.length < size)
      html += rand() < 0.6 ? `<${pick(tags)}>` : rand() < 0.5 ? `</${pick(tags).split(' ')[0]}>` : pick(words);
    return html;
  };
  const cases: Prepared[] = [];
  for (let i = 0; i < 30; i++) {
    cases.push(
      prepare(
        byTool('enhanced_chunk_content'),
        {
          label: `chunk ${i}`,
          body: {
            text: text(int(1, 200_000)),
            strategy: pick(['fixed', 'sentence', 'paragraph', 'recursive', 'markdown', 'auto']),
            max_tokens: int(16, 512),
            overlap_tokens: int(0, 15),
          },
        },
        false,
      ),
    );
    cases.push(
      prepare(
        byTool('enhanced_extract_tables'),
        {
          label: `tables ${i}`,
          body: { html_content: soup(int(1, 200_000)), strategy: pick(['auto', 'all', 'data', 'layout_aware']) },
        },
        false,
      ),
    );
    cases.push(
      prepare(
        byTool('neural_highlights'),
        {
          label: `highlights ${i}`,
          body: { query: text(int(1, 200)).trim() || 'bread', content: text(int(1, 100_000)) },
        },
        false,
      ),
    );
    const pattern = pick(['{a,b}'.repeat(8) + '*?'.repeat(int(1, 200)), '/**/x', '**', '/f*?z*', '{/fuzz,/x}*']);
    cases.push(
      prepare(
        byTool('enhanced_discover_urls'),
        {
          label: `discover ${i}`,
          body: { base_url: `${web.url}/fuzz-target`, pattern, max_depth: int(0, 2), timeout: 5 },
        },
        false,
      ),
    );
    const page = web.addPage(`/fuzz-soup-${i}`, soup(int(1, 300_000)));
    cases.push(
      prepare(
        byTool('enhanced_scrape'),
        {
          label: `scrape soup ${i}`,
          body: { urls: [page], response_format: pick(['json', 'markdown']), cache_mode: 'bypass' },
        },
        false,
      ),
    );
  }
  return cases;
}

describe(`fuzz every route (seed ${SEED})`, () => {
  it('answers every invalid request with a 4xx in the catalogue format, and hostile valid input with a 2xx or 4xx: never a 5xx', async () => {
    const openapi = (await quarry.get('/api/v1/openapi.json')).body;
    const prepared: Prepared[] = [];
    for (const capability of quarry.app.registry.list()) {
      const operation =
        openapi.paths[capability.http.path.replace(/:([A-Za-z_]+)/g, '{$1}')][capability.http.method.toLowerCase()];
      const bodySchema: Schema = operation.requestBody?.content?.['application/json']?.schema ?? {
        type: 'object',
        properties: Object.fromEntries((operation.parameters ?? []).map((p: Schema) => [p.name, p.schema])),
        required: (operation.parameters ?? []).filter((p: Schema) => p.required).map((p: Schema) => p.name),
      };
      for (const c of invalidCases(capability, bodySchema)) prepared.push(prepare(capability, c, true));
    }
    const invalidCount = prepared.length;
    prepared.push(...hostileCases());
    // Several invalid cases for every route, whatever routes exist.
    expect(invalidCount).toBeGreaterThan(quarry.app.registry.list().length * 4);

    loopDelay.reset();
    loopDelay.enable();
    const watch = new StallWatch();
    try {
      for (const [index, request] of prepared.entries()) {
        const answer = await watch.during(request, () => run(request));
        const route = `${request.capability.http.method} ${request.capability.http.path}`;
        outcomes.push({
          route,
          label: request.label,
          status: answer.status,
          message: String(answer.body?.error?.message ?? '').slice(0, 200),
          ms: answer.ms,
        });
        const where = `seed ${SEED}: ${route} — ${request.label}: ${JSON.stringify(answer.body).slice(0, 300)}`;
        expect(answer.status, where).toBeLessThan(500);
        if (request.expectError) {
          expect(answer.status, where).toBeGreaterThanOrEqual(400);
          // A route speaking another service's wire format answers its error shape (Firecrawl's: error as text, code
          // beside it).
          if (request.capability.http.errorReply)
            expect(answer.body?.code, `${where}: not its wire format's JSON`).toMatch(/^[A-Z_]+$/);
          else expect(answer.body?.error?.code, `${where}: not the catalogue's JSON`).toMatch(/^[A-Z_]+$/);
        }
        // Sent bodies are let go: a heap full of megabyte strings makes its own GC pauses.
        if (!watch.suspects.some((s) => s.request === request)) prepared[index] = undefined as never;
      }
    } finally {
      watch.stop();
      loopDelay.disable();
    }
    longestStallMs = watch.longest;
    // A stall seen on a machine shared with other work is confirmed by running its request again
    // alone: the server's own stalls come back every time, the scheduler's and GC's do not.
    for (const suspect of watch.suspects) {
      const retries: number[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        const again = new StallWatch();
        await again.during(suspect.request, () => run(suspect.request));
        again.stop();
        retries.push(again.longest);
      }
      const label = `${suspect.request.capability.http.method} ${suspect.request.capability.http.path} ${suspect.request.label}`;
      stalls.push(
        `${suspect.ms.toFixed(0)} ms during ${label} (again alone: ${retries.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
      );
      if (retries.every((ms) => ms >= MAX_STALL_MS)) confirmedStalls.push(label);
    }
    // About 1,000 requests: 15-30 s on a loaded 2-core machine; the limit is only a backstop.
  }, 180_000);

  it(`never stalls the event loop for more than ${MAX_STALL_MS} ms over the whole run`, () => {
    const delayMs = loopDelay.max / 1e6;
    const statuses: Record<string, number> = {};
    for (const outcome of outcomes) statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    const slowest = [...outcomes]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((o) => `${o.route} ${o.label} ${o.ms.toFixed(0)} ms`);
    console.log(
      `fuzz seed ${SEED}: ${outcomes.length} requests, statuses ${JSON.stringify(statuses)}, longest stall ${longestStallMs.toFixed(0)} ms, ` +
        `worst event-loop delay ${delayMs.toFixed(0)} ms (p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms); slowest: ${slowest.join('; ')}; ` +
        `stalls over ${MAX_STALL_MS} ms: ${stalls.join('; ') || 'none'}`,
    );
    expect(outcomes.length).toBeGreaterThan(300);
    expect(confirmedStalls).toEqual([]);
  });
});
