import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError, type EngineResult } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = new URL('.', import.meta.url).pathname;

runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-advanced.json', query: 'sort array of objects', contentType: 'application/json' }],
});

describe('stackoverflow parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'application/json',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('asks the StackExchange API for site=stackoverflow with the withbody filter', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'ssh key', page: 2 })).url);
    expect(url.pathname).toBe('/2.3/search/advanced');
    expect(url.searchParams.get('site')).toBe('stackoverflow');
    expect(url.searchParams.get('q')).toBe('ssh key');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('filter')).toBe('withbody');
  });

  it('reads questions with decoded titles and body snippets (hand-made fixture)', () => {
    const results = parse('search-advanced.json', 'sort array of objects');
    expect(results[0]).toMatchObject({
      url: 'https://stackoverflow.com/questions/1129216/sort-array-of-objects-by-string-property-value',
      title: 'Sort array of objects by string property value',
      author: "Jane O'Neil",
      publishedDate: '2009-07-16T22:00:00.000Z',
    });
    expect(results[0]!.snippet).toContain("{ first_nom: 'Laszlo' }");
    expect(results[0]!.snippet).toContain('last_nom & keep it stable?');
    expect(results[0]!.extra).toMatchObject({
      answers: 14,
      hasAcceptedAnswer: true,
      tags: ['javascript', 'arrays', 'sorting'],
    });
    expect(results[1]!.title).toBe('Why does Array.sort() return "undefined" & not the array?');
  });

  it('throws a CAPTCHA error on the real stackoverflow.com human verification page', () => {
    expect(() => parse('human-verification.html', 'hello')).toThrow(EngineCaptchaError);
  });
});
