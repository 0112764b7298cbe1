import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError, type EngineResult } from '../../core/engine.js';
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
  fixtures: [{ file: 'photos_search_example_pretty.json', query: 'church', contentType: 'application/json' }],
});

describe('flickr_images parser', () => {
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

  it('sends the API key and maps safe search levels', () => {
    const url = (safeSearch: 0 | 1 | 2) =>
      new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'church', safeSearch })).url);
    expect(url(1).searchParams.get('api_key')).toBe('test-key');
    expect(url(1).searchParams.get('method')).toBe('flickr.photos.search');
    expect(url(0).searchParams.get('safe_search')).toBe('3');
    expect(url(2).searchParams.get('safe_search')).toBe('1');
  });

  it('reads the captured photos with image, thumbnail and size', () => {
    const results = parse('photos_search_example_pretty.json', 'church');
    expect(results).toHaveLength(30);
    expect(results[0]).toMatchObject({
      url: 'https://www.flickr.com/photos/7478087%40N06/49514337848',
      title: 'Warsy (église) • 7433',
      author: 'markustrois',
      imageUrl: 'https://live.staticflickr.com/65535/49514337848_bbdbb5f761_b.jpg',
      thumbnail: 'https://live.staticflickr.com/65535/49514337848_bbdbb5f761.jpg',
      width: 660,
      height: 1024,
      publishedDate: '2011-11-05T15:54:37',
    });
    expect(results[0]!.snippet.startsWith('Warsy (Somme, France) - www.google.com/maps')).toBe(true);
  });

  it('treats an invalid key as access denied', () => {
    const ctx = testContext(loaded.manifest, { query: 'church' });
    const body = JSON.stringify({ stat: 'fail', code: 100, message: 'Invalid API Key (Key has invalid format)' });
    expect(() => loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx)).toThrow(
      EngineAccessDeniedError,
    );
  });
});
