import { beforeAll, describe, expect, it } from 'vitest';
import { EngineRateLimitedError, type EngineResult } from '../../core/engine.js';
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
  fixtures: [{ file: 'search-advanced.json', query: 'query', contentType: 'application/json' }],
});

describe('askubuntu parser', () => {
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

  it('asks the StackExchange API for site=askubuntu with the withbody filter', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'ssh key', page: 2 })).url);
    expect(url.pathname).toBe('/2.3/search/advanced');
    expect(url.searchParams.get('site')).toBe('askubuntu');
    expect(url.searchParams.get('q')).toBe('ssh key');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('filter')).toBe('withbody');
  });

  it('reads questions (hand-made fixture)', () => {
    const [question] = parse('search-advanced.json', 'query');
    expect(question).toMatchObject({
      url: 'https://askubuntu.com/questions/586000/how-do-i-list-installed-packages',
      title: 'How do I list installed packages?',
    });
    expect(question!.snippet).not.toBe('');
  });

  it('maps the API throttle error to a rate limit', () => {
    expect(() => parse('throttled.json', 'query', 400)).toThrow(EngineRateLimitedError);
  });
});
