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

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'yellow flowers', contentType: 'application/json' }],
});

describe('pixabay_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'yellow flowers' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses hits into image results titled by their tags', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://pixabay.com/en/blossom-bloom-flower-195893/',
      title: 'blossom, bloom, flower',
      snippet: '',
      imageUrl: 'https://pixabay.com/get/ed6a99fd0a76647_1280.jpg',
      thumbnail: 'https://pixabay.com/get/35bbf209e13e39d2_640.jpg',
      sourceUrl: 'https://pixabay.com/en/blossom-bloom-flower-195893/',
      author: 'Josch13',
      width: 4000,
      height: 2250,
      extra: { type: 'photo', views: 7671, downloads: 6439 },
    });
    expect(results[1]!.title).toBe('yellow, flower');
  });

  it('turns the plain-text key error into access denied and rate limits into a typed error', () => {
    expect(() => parse('[ERROR 400] Invalid or missing API key (https://pixabay.com/api/docs/).')).toThrow(
      EngineAccessDeniedError,
    );
    expect(() => parse('API rate limit exceeded')).toThrow(EngineRateLimitedError);
  });

  it('sends the key, language, safe search and paging', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'yellow flowers', page: 2, safeSearch: 0, language: 'de' }),
    );
    expect(request.url).toBe(
      'https://pixabay.com/api/?key=test-key&q=yellow+flowers&lang=de&image_type=all&safesearch=false&page=2&' +
        'per_page=20',
    );
    const other = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'x', language: 'ar', safeSearch: 1 }),
    );
    expect(other.url).toBe(
      'https://pixabay.com/api/?key=test-key&q=x&image_type=all&safesearch=true&page=1&per_page=20',
    );
  });
});
