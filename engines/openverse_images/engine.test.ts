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

runEngineConformance(engineDir, {
  fixtures: [{ file: 'images-search.json', query: 'fox', contentType: 'application/json' }],
});

describe('openverse_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'fox' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses image results with licence and dimensions', () => {
    const results = parse(readFixture(engineDir, 'images-search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.flickr.com/photos/47445767@N05/5120345567',
      title: 'Red fox in the snow',
      snippet: '',
      imageUrl: 'https://live.staticflickr.com/4140/5120345567_9d2b0c2f7e_b.jpg',
      thumbnail: 'https://api.openverse.org/v1/images/4bc43a04-ef46-4544-a0c1-63c63f56e276/thumb/',
      sourceUrl: 'https://www.flickr.com/photos/47445767@N05/5120345567',
      author: 'Jane Doe',
      width: 1024,
      height: 683,
      extra: { license: 'CC BY 2.0', licenseUrl: 'https://creativecommons.org/licenses/by/2.0/', source: 'flickr' },
    });
    expect(results[1]!.title).toBe('Vulpes vulpes & cub');
    // No title: the landing page stands in; no dimensions: none are invented.
    expect(results[2]).toMatchObject({
      title: 'https://www.rawpixel.com/image/1234567',
      extra: { license: 'CC0 1.0' },
    });
    expect(results[2]).not.toHaveProperty('width');
  });

  it('raises a parse error on an error answer', () => {
    expect(() => parse(JSON.stringify({ detail: 'Invalid page_size' }))).toThrow(EngineParseError);
  });

  it('pages and lets sensitive results in only with safe search off', () => {
    const off = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'red fox', page: 3, safeSearch: 0 }));
    expect(off.url).toBe(
      'https://api.openverse.org/v1/images/?q=red+fox&page=3&page_size=20&include_sensitive_results=true',
    );
    const on = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'red fox', safeSearch: 1 }));
    expect(on.url).toBe('https://api.openverse.org/v1/images/?q=red+fox&page=1&page_size=20');
  });
});
