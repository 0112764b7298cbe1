import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-hand-made.json', query: 'open source search engine', contentType: JSON_TYPE }],
});

describe('searxng', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'open source search engine' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses results and drops those without a web URL', () => {
    const results = parse(readFixture(engineDir, 'search-hand-made.json'));
    expect(results.map((r) => r.url)).toEqual([
      'https://en.wikipedia.org/wiki/SearXNG',
      'https://github.com/searxng/searxng',
      'https://example.org/gallery/search.png',
    ]);
    expect(results[0]).toMatchObject({
      title: 'SearXNG - Wikipedia',
      extra: { engine: 'wikipedia', engines: ['wikipedia', 'duckduckgo'], score: 4.5 },
    });
    expect(results[0]).not.toHaveProperty('publishedDate');
    expect(results[1]!.publishedDate).toBe('2024-05-02T00:00:00');
    expect(results[2]).toMatchObject({
      imageUrl: 'https://example.org/gallery/search.png',
      thumbnail: 'https://example.org/gallery/search-thumb.png',
    });
  });

  it('rejects an answer without results', () => {
    expect(() => parse('{"error":"format not allowed"}')).toThrow(EngineParseError);
  });

  it('builds the documented parameters on the configured instance', () => {
    const ctx = testContext(
      loaded.manifest,
      { query: 'q', page: 2, safeSearch: 2, timeRange: 'day', language: 'de' },
      'https://search.example.org/',
    );
    expect(loaded.engine.buildRequest(ctx).url).toBe(
      'https://search.example.org/search?q=q&format=json&pageno=2&language=de&safesearch=2&time_range=day',
    );
  });
});
