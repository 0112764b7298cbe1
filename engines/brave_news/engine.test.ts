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
import { braveDate } from '../_brave/brave-api.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [{ file: 'hello-world.json', query: 'hello world', contentType: 'application/json' }],
});

describe('brave_news', () => {
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

  it('parses the recorded hello world answer with dates', () => {
    const results = parse(readFixture(engineDir, 'hello-world.json'));
    expect(results).toHaveLength(20);
    expect(results[0]).toMatchObject({
      url: 'https://www.npr.org/sections/world/',
      title: 'World News and International Headlines : NPR',
      publishedDate: '2024-12-31T17:09:03.000Z',
      extra: { source: 'www.npr.org' },
    });
    expect(results[0]!.snippet).toMatch(/^NPR world news, international art and culture/);
    expect(results[0]!.thumbnail).toMatch(/^https:\/\/imgs\.search\.brave\.com\//);
    expect(results[1]).toMatchObject({
      title: 'Reuters World News | Latest Top Stories | Reuters',
      publishedDate: '2024-12-31T10:35:03.000Z',
    });
  });

  it('maps API error answers to typed errors', () => {
    const error = (status: number) =>
      JSON.stringify({ type: 'ErrorResponse', error: { id: 'x', status, code: 'X', detail: 'no' } });
    expect(() => parse(error(429))).toThrow(EngineRateLimitedError);
    expect(() => parse(error(401))).toThrow(EngineAccessDeniedError);
    expect(braveDate('2024-01-02T03:04:05+02:00')).toBe('2024-01-02T01:04:05.000Z');
    expect(braveDate('not a date')).toBeUndefined();
  });

  it('sends the token and the query parameters', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2, timeRange: 'day', safeSearch: 0, language: 'de' }),
    );
    expect(request.url).toBe(
      'https://api.search.brave.com/res/v1/news/search?q=rust&count=20&offset=1&freshness=pd&safesearch=off&s' +
        'earch_lang=de',
    );
    expect(request.headers).toEqual({ accept: 'application/json', 'x-subscription-token': 'test-key' });
  });
});
