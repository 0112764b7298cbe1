import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [{ file: 'web-search-hello-world.json', query: 'hello world', contentType: 'application/json' }],
});

describe('brave', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'hello world' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses web.results of the recorded answer', () => {
    const results = parse(readFixture(engineDir, 'web-search-hello-world.json'));
    expect(results).toHaveLength(20);
    expect(results[0]).toMatchObject({
      url: 'https://en.wikipedia.org/wiki/%22Hello,_World!%22_program',
      title: '"Hello, World!" program - Wikipedia',
      publishedDate: '2024-12-27T15:49:55',
      extra: { age: '4 days ago', language: 'en' },
    });
    expect(results[0]!.snippet).toMatch(/^A "Hello, World!" program is usually a simple computer program/);
    expect(results[0]!.snippet).toContain("a language's basic syntax");
    expect(results[19]!.url).toBe('https://gobyexample.com/hello-world');
  });

  it('maps API error bodies to typed errors', () => {
    const error = (status: number) =>
      JSON.stringify({ type: 'ErrorResponse', error: { id: 'x', status, code: 'X', detail: 'nope' } });
    expect(() => parse(error(429))).toThrow(EngineRateLimitedError);
    expect(() => parse(error(422))).toThrow(EngineAccessDeniedError);
  });

  it('sends the token and the documented parameters', () => {
    const ctx = testContext(loaded.manifest, {
      query: 'rust',
      page: 20,
      timeRange: 'month',
      safeSearch: 2,
      language: 'fr',
    });
    const request = loaded.engine.buildRequest(ctx);
    expect(request.headers?.['x-subscription-token']).toBe('test-key');
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('https://api.search.brave.com/res/v1/web/search');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'rust',
      offset: '9',
      freshness: 'pm',
      safesearch: 'strict',
      search_lang: 'fr',
    });
  });
});

describe('brave autocomplete', () => {
  it('asks the suggest endpoint with the key and reads the suggestions', async () => {
    const { readFileSync } = await import('node:fs');
    const { manifest, engine } = await loadEngine(engineDir);
    const auto = engine.autocomplete!;
    const request = auto.buildRequest('sourd', {
      settings: { baseUrl: manifest.baseUrl, apiKey: 'k-123', options: {} },
      manifest,
      language: 'en',
    });
    expect(request.url).toBe('https://api.search.brave.com/res/v1/suggest/search?q=sourd&count=10&lang=en');
    expect(request.headers?.['x-subscription-token']).toBe('k-123');
    const body = readFileSync(new URL('fixtures/suggest-hand-made.json', import.meta.url), 'utf8');
    expect(auto.parseResponse({ status: 200, headers: {}, body, url: request.url, request })).toEqual([
      'sourdough starter',
      'sourdough bread recipe',
      'sourdough discard recipes',
    ]);
  });
});
