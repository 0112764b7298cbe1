/**
 * The shared checks every engine passes. Each engine's engine.test.ts calls
 * runEngineConformance() with its fixtures, then adds its own assertions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineError, type EngineQuery, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { PACKAGE_ROOT } from '../../core/paths.js';
import {
  loadEngine,
  readEngineManifest,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from './load-engine.js';

export interface ConformanceFixture {
  /** File name inside <engineDir>/fixtures/. */
  file: string;
  /** The query the fixture was recorded for. */
  query: string;
  contentType?: string;
  /** false for captures that hold no results (no-results pages). Default true. */
  expectResults?: boolean;
}

const OVERRIDE_BASE = 'http://127.0.0.1:9/engines/probe';
const TAG = /<\/?[a-z][a-z0-9-]*(\s[^>]*)?>/i;
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/i;

const CAPTCHA_PAGE = `<!DOCTYPE html><html><head><title>Are you a robot?</title></head><body>
<form id="captcha-form" action="/sorry/index" method="post"><div class="g-recaptcha" data-sitekey="x"></div>
<p>Our systems have detected unusual traffic from your computer network. Please solve the CAPTCHA.</p></form></body></html>`;

/** What a request looks like from the outside: the parts an engine can vary. */
function fingerprint(request: HttpRequestSpec): string {
  return JSON.stringify({
    method: request.method,
    url: request.url,
    body: request.body ?? null,
    headers: request.headers ?? {},
  });
}

export function assertResultShape(result: EngineResult, where: string): void {
  expect(typeof result.title, `${where}: title`).toBe('string');
  expect(result.title.trim().length, `${where}: title is empty`).toBeGreaterThan(0);
  expect(typeof result.snippet, `${where}: snippet`).toBe('string');
  const url = new URL(result.url);
  expect(['http:', 'https:'], `${where}: url ${result.url}`).toContain(url.protocol);
  for (const [field, text] of [
    ['title', result.title],
    ['snippet', result.snippet],
  ] as const) {
    expect(text, `${where}: markup left in ${field}`).not.toMatch(TAG);
    expect(text, `${where}: entity left in ${field}`).not.toMatch(ENTITY);
  }
}

/** Parsing must end in a typed engine error or zero results — never a crash. */
function expectTypedErrorOrNothing(run: () => unknown): void {
  let outcome: unknown;
  try {
    outcome = run();
  } catch (error) {
    expect(error, `threw ${String(error)}`).toBeInstanceOf(EngineError);
    return;
  }
  expect(outcome).toHaveProperty('results');
  expect((outcome as { results: unknown[] }).results).toHaveLength(0);
}

export function runEngineConformance(engineDir: string, options: { fixtures: ConformanceFixture[] }): void {
  const id = readEngineManifest(engineDir).id;

  describe(`engine conformance: ${id}`, () => {
    let loaded: LoadedTestEngine;
    beforeAll(async () => {
      loaded = await loadEngine(engineDir);
    });

    const build = (query: Partial<EngineQuery> = {}, baseUrl?: string): HttpRequestSpec =>
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'open source search', ...query }, baseUrl));

    it('has a plugin.json that validates against plugin.schema.json', () => {
      const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'plugin.schema.json'), 'utf8')) as object;
      const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
      const valid = validate(loaded.rawManifest);
      expect(validate.errors ?? [], 'schema errors').toEqual([]);
      expect(valid).toBe(true);
      expect(loaded.manifest.kind).toBe('engine');
    });

    it('has an id that matches its folder name', () => {
      expect(loaded.manifest.id).toBe(loaded.folderName);
      expect(loaded.manifest.id).toMatch(/^[a-z][a-z0-9_]*$/);
    });

    it('builds the same request twice for the same input', () => {
      const query: Partial<EngineQuery> = { page: 2, timeRange: 'week', safeSearch: 2, language: 'de' };
      expect(build(query)).toEqual(build(query));
    });

    it('sends requests to an absolute http(s) URL on the configured baseUrl', () => {
      const request = build();
      expect(['http:', 'https:']).toContain(new URL(request.url).protocol);
      expect(request.url.startsWith(loaded.manifest.baseUrl.replace(/\/+$/, ''))).toBe(true);
      const redirected = build({}, `${OVERRIDE_BASE}/`);
      expect(redirected.url.startsWith(`${OVERRIDE_BASE}/`), redirected.url).toBe(true);
      expect(['GET', 'POST']).toContain(redirected.method);
    });

    it('honours paging if and only if supports.paging', () => {
      const differs = fingerprint(build({ page: 1 })) !== fingerprint(build({ page: 2 }));
      expect(differs).toBe(loaded.manifest.supports.paging);
    });

    it('honours the time range if and only if supports.timeRange', () => {
      const differs = fingerprint(build()) !== fingerprint(build({ timeRange: 'week' }));
      expect(differs).toBe(loaded.manifest.supports.timeRange);
    });

    it('honours safe search if and only if supports.safeSearch', () => {
      const differs = fingerprint(build({ safeSearch: 0 })) !== fingerprint(build({ safeSearch: 2 }));
      expect(differs).toBe(loaded.manifest.supports.safeSearch);
    });

    it('honours the language if and only if supports.languages', () => {
      const differs = fingerprint(build({ language: 'en' })) !== fingerprint(build({ language: 'de' }));
      expect(differs).toBe(loaded.manifest.supports.languages);
    });

    it('offers autocomplete if and only if supports.autocomplete, on the configured baseUrl', () => {
      const auto = loaded.engine.autocomplete;
      expect(auto !== undefined).toBe(loaded.manifest.supports.autocomplete);
      if (!auto) return;
      const settings = { baseUrl: OVERRIDE_BASE, apiKey: 'test-key', options: {} };
      const request = auto.buildRequest('open sour', { settings, manifest: loaded.manifest, language: 'en' });
      expect(request.url.startsWith(`${OVERRIDE_BASE}/`), request.url).toBe(true);
      expect(auto.buildRequest('open sour', { settings, manifest: loaded.manifest, language: 'en' })).toEqual(request);
    });

    for (const fixture of options.fixtures) {
      it(`parses ${fixture.file} into well-formed results`, () => {
        const ctx = testContext(loaded.manifest, { query: fixture.query });
        const request = loaded.engine.buildRequest(ctx);
        const step = loaded.engine.parseResponse(
          testResponse(request, readFixture(engineDir, fixture.file), fixture.contentType),
          ctx,
        );
        expect(step).toHaveProperty('results');
        const results = (step as { results: EngineResult[] }).results;
        if (fixture.expectResults === false) expect(results).toHaveLength(0);
        else expect(results.length).toBeGreaterThan(0);
        results.forEach((result, index) => assertResultShape(result, `${fixture.file} #${index}`));
      });
    }

    it('answers an empty body with a typed error or no results', () => {
      const ctx = testContext(loaded.manifest, { query: 'open source search' });
      const request = loaded.engine.buildRequest(ctx);
      expectTypedErrorOrNothing(() => loaded.engine.parseResponse(testResponse(request, ''), ctx));
    });

    it('answers an HTML CAPTCHA page with a typed error or no results', () => {
      const ctx = testContext(loaded.manifest, { query: 'open source search' });
      const request = loaded.engine.buildRequest(ctx);
      expectTypedErrorOrNothing(() => loaded.engine.parseResponse(testResponse(request, CAPTCHA_PAGE), ctx));
    });
  });
}
