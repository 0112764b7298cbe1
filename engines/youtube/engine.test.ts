import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, type EngineResult } from '../../core/engine.js';
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
  fixtures: [
    { file: 'sep_youtube-Hello-synopsis-1.response.html', query: 'Hello', contentType: 'text/html; charset=utf-8' },
  ],
});

describe('youtube parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'text/html; charset=utf-8',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('sets the upload-date filter for a time range', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'hello', timeRange: 'week' })).url,
    );
    expect(url.pathname).toBe('/results');
    expect(url.searchParams.get('search_query')).toBe('hello');
    expect(url.searchParams.get('sp')).toBe('EgIIAw==');
  });

  it('reads videos from the captured ytInitialData', () => {
    const results = parse('sep_youtube-Hello-synopsis-1.response.html', 'Hello');
    expect(results.length).toBeGreaterThanOrEqual(20);
    expect(results[0]).toMatchObject({
      url: 'https://www.youtube.com/watch?v=YQHsXMglC9A',
      title: 'Adele - Hello',
      author: 'Adele',
    });
    expect(results[0]!.thumbnail).toMatch(/^https:\/\/i\.ytimg\.com\/vi\/YQHsXMglC9A\//);
    expect(results[0]!.snippet.startsWith('Directed by Xavier Dolan')).toBe(true);
    expect(results[0]!.extra).toMatchObject({
      duration: '6:07',
      views: '2,830,343,147 views',
      published: '5 years ago',
    });
    const stream = results.find((result) => result.title === '【MINECRAFT】hello everynyan');
    expect(stream!.extra).toMatchObject({ duration: '3:12:56' });
  });

  it('fails with a parse error when the page has no ytInitialData', () => {
    const ctx = testContext(loaded.manifest, { query: 'hello' });
    expect(() =>
      loaded.engine.parseResponse(
        testResponse(loaded.engine.buildRequest(ctx), '<html><body>changed</body></html>'),
        ctx,
      ),
    ).toThrow(EngineParseError);
  });
});
