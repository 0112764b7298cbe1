/**
 * Engine answers are parsed in the extraction worker pool (built worker:
 * `npm run build`), a JSON answer up to INLINE_JSON_MAX_BYTES on the event
 * loop: the same results either way, and an engine's typed failure keeps its
 * code and suspension across the thread boundary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineQuery, LoadedEngine } from '../../core/engine.js';
import { createLogger } from '../../core/logger.js';
import { responseDecodedOnRead } from '../../core/http/response-body.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { ExtractionPool } from '../extract/extraction-pool.js';
import type { EngineParseTask } from './engine-parse-task.js';
import { loadConfigEngine } from './config-engines.js';
import { EngineHealth } from './engine-health.js';
import { EngineService, INLINE_JSON_MAX_BYTES } from './engine-service.js';
import { loadBuiltinEngines } from './engine-sources.js';

const QUERY: EngineQuery = { query: 'hello world', page: 1, language: 'en', safeSearch: 1 };
const fixture = (engine: string, file: string) =>
  readFileSync(join(PACKAGE_ROOT, 'engines', engine, 'fixtures', file), 'utf8');

let pool: ExtractionPool;
let builtin: LoadedEngine[];

beforeAll(async () => {
  pool = new ExtractionPool({ threads: 1, maxQueue: 20 });
  builtin = await loadBuiltinEngines();
});
afterAll(() => pool.close());

/**
 * An engine service whose engines all answer `body` (text as UTF-8, or bytes as they are), recording what went to the
 * pool.
 */
function serviceAnswering(engines: LoadedEngine[], body: string | Buffer) {
  const pooled: EngineParseTask[] = [];
  const fetcher = {
    fetch: async (request: { url: string }) =>
      responseDecodedOnRead({
        status: 200,
        headers: { 'content-type': 'text/html' },
        bytes: Buffer.from(body),
        url: request.url,
        elapsedMs: 1,
      }),
  };
  const parsing = {
    engine: (task: EngineParseTask, signal?: AbortSignal) => (pooled.push(task), pool.engine(task, signal)),
  };
  const health = new EngineHealth();
  const service = new EngineService(
    engines,
    { engines: { brave: { apiKey: 'test-key' } } },
    fetcher as never,
    parsing,
    health,
    createLogger('silent'),
  );
  return { service, pooled, health };
}

const engine = (id: string) => builtin.find((e) => e.manifest.id === id)!;

/** A config-declared HTML engine whose results are `div.hit` blocks: a link and a paragraph. */
function hitListEngine(id: string, origin: string): LoadedEngine {
  return loadConfigEngine({
    id,
    name: id,
    type: 'html',
    categories: ['general'],
    urlTemplate: `${origin}/search?q={query}`,
    pageSize: 10,
    paging: false,
    weight: 1,
    headers: {},
    selectors: { result: 'div.hit', url: 'a@href', title: 'a', snippet: 'p' },
  });
}

describe('engine answers parsed off the event loop', () => {
  it('parses an HTML answer in the worker pool, with the results the engine gives on this thread', async () => {
    const body = fixture('google', 'nojs.html');
    const { service, pooled } = serviceAnswering([engine('google')], body);
    const results = await service.search('google', QUERY);
    expect(pooled).toHaveLength(1);
    expect(pooled[0]!.engine.module).toMatch(/dist\/engines\/google\/engine\.js$/);
    // The page's bytes were moved to the worker thread, not copied: nothing is left of them here.
    expect(pooled[0]!.response.bytes.byteLength).toBe(0);
    const request = engine('google').definition.buildRequest({
      query: QUERY,
      settings: service.settings('google'),
      manifest: engine('google').manifest,
    });
    const here = engine('google').definition.parseResponse(
      { status: 200, headers: { 'content-type': 'text/html' }, body, url: request.url, request },
      { query: QUERY, settings: service.settings('google'), manifest: engine('google').manifest },
    );
    expect(results.length).toBeGreaterThan(3);
    expect(results).toEqual('results' in here ? here.results : null);
  });

  it('keeps a block page typed across the thread boundary: CAPTCHA, and the engine suspended for its time', async () => {
    const { service, pooled, health } = serviceAnswering([engine('google')], fixture('google', 'recaptcha.html'));
    await expect(service.search('google', QUERY)).rejects.toMatchObject({ code: 'ENGINE_CAPTCHA' });
    expect(pooled).toHaveLength(1);
    expect((await health.suspension('google')).remainingMs).toBeGreaterThan(3000 * 1000);
  });

  it('parses a small JSON answer on the event loop and a large one in the pool', async () => {
    const capture = fixture('brave', 'web-search-hello-world.json');
    expect(Buffer.byteLength(capture)).toBeLessThanOrEqual(INLINE_JSON_MAX_BYTES);
    const small = serviceAnswering([engine('brave')], capture);
    const inline = await small.service.search('brave', QUERY);
    expect(small.pooled).toHaveLength(0);
    // The same answer padded past the limit (whitespace JSON.parse skips) goes to the pool and gives the same results.
    const large = serviceAnswering([engine('brave')], capture + ' '.repeat(INLINE_JSON_MAX_BYTES));
    expect(await large.service.search('brave', QUERY)).toEqual(inline);
    expect(large.pooled).toHaveLength(1);
    expect(inline.length).toBeGreaterThan(3);
  });

  it('parses a config-declared HTML engine in the pool by its spec', async () => {
    const declared = hitListEngine('docs_site', 'https://docs.example');
    const body =
      '<div class="hit"><a href="/a">Pod scheduling</a><p>How pods are placed.</p></div><div class="hit"><a ' +
      'href="https://k8s.example/b">Taints</a></div>';
    const { service, pooled } = serviceAnswering([declared], body);
    const results = await service.search('docs_site', QUERY);
    expect(pooled[0]!.engine).toMatchObject({ factory: 'configEngineDefinition', spec: { id: 'docs_site' } });
    expect(results.map((r) => r.url)).toEqual(['https://docs.example/a', 'https://k8s.example/b']);
  });

  it('sends the answer to the pool as bytes and decodes it there by the charset its <meta> names', async () => {
    const declared = hitListEngine('old_site', 'https://old.example');
    const page =
      '<html><head><meta charset="windows-1252"></head><body><div class="hit"><a href="/c">Café crème – ' +
      '“naïve”</a><p>Ça coûte 5 €.</p></div></body></html>';
    // windows-1252 bytes: é is 0xE9, – 0x96, “ ” 0x93 0x94, € 0x80 — none of them valid UTF-8.
    const bytes = Buffer.from(
      page.replace('–', '\x96').replace('“', '\x93').replace('”', '\x94').replace('€', '\x80'),
      'latin1',
    );
    const { service, pooled } = serviceAnswering([declared], bytes);
    const [result] = await service.search('old_site', QUERY);
    expect(pooled[0]!.response.bytes).toBeInstanceOf(Uint8Array);
    expect(pooled[0]!.response).not.toHaveProperty('body');
    expect(result).toMatchObject({ title: 'Café crème – “naïve”', snippet: 'Ça coûte 5 €.' });
  });
});
