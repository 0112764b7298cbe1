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
  fixtures: [{ file: 'search-photos.json', query: 'lake', contentType: 'application/json' }],
});

describe('unsplash_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'lake' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses photos into image results without tracking parameters', () => {
    const results = parse(readFixture(engineDir, 'search-photos.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://unsplash.com/photos/mountain-lake-at-sunrise-Dwu85P9SOIk',
      title: 'Mountain lake at sunrise',
      snippet: 'body of water surrounded by trees and mountains',
      imageUrl:
        'https://images.unsplash.com/photo-1462331940025-496dfbfc7564?crop=entropy&cs=tinysrgb&fit=max&fm=jpg' +
        '&ixlib=rb-4.0.3&q=80&w=1080',
      thumbnail:
        'https://images.unsplash.com/photo-1462331940025-496dfbfc7564?crop=entropy&cs=tinysrgb&fit=max&fm=jpg' +
        '&ixlib=rb-4.0.3&q=80&w=200',
      sourceUrl: 'https://unsplash.com/photos/mountain-lake-at-sunrise-Dwu85P9SOIk',
      publishedDate: '2016-05-03T11:00:28.000Z',
      author: 'Jane Doe',
      width: 6000,
      height: 4000,
    });
    expect(results[1]).toMatchObject({ title: 'a wooden dock on a calm lake', snippet: '', extra: { premium: true } });
  });

  it('raises a parse error on an errors answer', () => {
    expect(() => parse(JSON.stringify({ errors: ['Rate Limit Exceeded'] }))).toThrow(EngineParseError);
  });

  it('pages and filters strictly only for strict safe search', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'alpine lake', page: 2, safeSearch: 2 }),
    );
    expect(request.url).toBe(
      'https://unsplash.com/napi/search/photos?query=alpine+lake&page=2&per_page=20&content_filter=high',
    );
  });
});
