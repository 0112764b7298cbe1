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
import { componentsDate } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-multi.json', query: 'humble', contentType: 'application/json' }],
});

describe('genius', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'humble' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('merges the sections by URL, skipping videos', () => {
    const results = parse(readFixture(engineDir, 'search-multi.json'));
    expect(results.map((result) => result.url)).toEqual([
      'https://genius.com/Kendrick-lamar-humble-lyrics',
      'https://genius.com/Kendrick-lamar-and-sza-all-the-stars-lyrics',
      'https://genius.com/artists/Kendrick-lamar',
      'https://genius.com/albums/Kendrick-lamar/Damn',
    ]);
    expect(results[0]).toEqual({
      url: 'https://genius.com/Kendrick-lamar-humble-lyrics',
      title: 'HUMBLE. by Kendrick Lamar',
      snippet: 'Song by Kendrick Lamar · released March 30, 2017',
      author: 'Kendrick Lamar',
      publishedDate: '2017-03-30',
      thumbnail: 'https://images.genius.com/bbb.300x300x1.jpg',
      extra: { type: 'song', id: 2396871, pageviews: 12450333 },
    });
    expect(results[1]).toMatchObject({
      author: 'Kendrick Lamar & SZA',
      publishedDate: '2018-01',
      snippet: 'Song by Kendrick Lamar & SZA',
    });
    expect(results[2]).toMatchObject({ title: 'Kendrick Lamar', snippet: 'Artist', extra: { type: 'artist' } });
    expect(results[3]).toMatchObject({
      title: 'DAMN. by Kendrick Lamar',
      snippet: 'Album by Kendrick Lamar',
      publishedDate: '2017-04-14',
    });
  });

  it('builds the multi search request and rejects error answers', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'bohemian rhapsody' })).url).toBe(
      'https://genius.com/api/search/multi?q=bohemian+rhapsody&per_page=5',
    );
    expect(() => parse('{"meta":{"status":403,"message":"Forbidden"}}')).toThrow(EngineParseError);
    expect(componentsDate({ year: 1975 })).toBe('1975');
    expect(componentsDate(null)).toBeUndefined();
  });
});
