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
  fixtures: [{ file: 'listing-hot.json', query: 'askreddit', contentType: 'application/json' }],
});

describe('reddit parser', () => {
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

  it('builds search.json with raw_json and the time range', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust', timeRange: 'month' })).url,
    );
    expect(url.pathname).toBe('/search.json');
    expect(url.searchParams.get('q')).toBe('rust');
    expect(url.searchParams.get('t')).toBe('month');
    expect(url.searchParams.get('raw_json')).toBe('1');
  });

  it('reads the captured listing into permalink results', () => {
    const results = parse('listing-hot.json', 'askreddit');
    expect(results.length).toBeGreaterThan(20);
    expect(results[0]).toMatchObject({
      url: 'https://www.reddit.com/r/AskReddit/comments/46c00m/the_askreddit_mobile_design_extravaganza_contest/',
      title: 'THE ASKREDDIT MOBILE DESIGN EXTRAVAGANZA CONTEST!',
      author: 'orangejulius',
      publishedDate: '2016-02-18T00:30:45.000Z',
    });
    expect(results[0]!.snippet.startsWith('Hi everybody! (Hi Doctor Nick!)')).toBe(true);
    const noText = results.find((result) => result.title === 'Reddit, what went 0-100 real fucking quick?');
    expect(noText!.snippet).toBe('r/AskReddit · 2250 points · 2598 comments');
  });

  it('maps 429 to a rate limit', () => {
    expect(() => parse('listing-hot.json', 'askreddit', 429)).toThrow(EngineRateLimitedError);
  });
});
