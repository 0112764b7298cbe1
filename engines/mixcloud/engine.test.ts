import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-cloudcast.json', query: 'deep house', contentType: 'application/json' }],
});

describe('mixcloud', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'deep house' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses cloudcasts', () => {
    const results = parse(readFixture(engineDir, 'search-cloudcast.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://www.mixcloud.com/sunday-sessions/deep-house-sunday-vol-12/',
      title: 'Deep House Sunday Vol. 12',
      snippet: 'by Sunday Sessions · Deep House, Soulful',
      author: 'Sunday Sessions',
      publishedDate: '2022-09-04T18:30:12.000Z',
      thumbnail: 'https://thumbnailer.mixcloud.com/unsafe/100x100/extaudio/a/b/c.jpg',
      extra: {
        key: '/sunday-sessions/deep-house-sunday-vol-12/',
        durationSeconds: 7264,
        plays: 18423,
        favorites: 612,
        tags: ['Deep House', 'Soulful'],
      },
    });
    expect(results[1]).toMatchObject({
      title: 'House Hour – 2023-01-06',
      author: 'Radio X & Friends',
      snippet: 'by Radio X & Friends',
    });
    expect(results[1]!.thumbnail).toBeUndefined();
  });

  it('pages with offset', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'deep house', page: 2 })).url);
    expect(url.origin + url.pathname).toBe('https://api.mixcloud.com/search/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'deep house',
      type: 'cloudcast',
      limit: '20',
      offset: '20',
    });
  });

  it('maps API errors', () => {
    expect(() =>
      parse('{"error":{"type":"RateLimitException","message":"You are being rate limited.","retry_after":30}}'),
    ).toThrow(EngineRateLimitedError);
    expect(() => parse('{"error":{"type":"InvalidParameter","message":"bad type"}}')).toThrow(EngineParseError);
  });
});
