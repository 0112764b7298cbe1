import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError, EngineParseError } from '../../core/engine.js';
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
  fixtures: [{ file: 'search-tracks.json', query: 'night drive', contentType: 'application/json' }],
});

describe('soundcloud', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'night drive' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json', status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses tracks', () => {
    const results = parse(readFixture(engineDir, 'search-tracks.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://soundcloud.com/example-artist/night-drive',
      title: 'Night Drive',
      snippet: 'Recorded at Studio 4 & mixed at home. Free download!',
      author: 'Example Artist',
      publishedDate: '2019-05-17T09:12:44.000Z',
      thumbnail: 'https://i1.sndcdn.com/artworks-000123456789-abcdef-large.jpg',
      extra: {
        id: 621234567,
        durationSeconds: 246,
        genre: 'Ambient',
        plays: 845120,
        likes: 10234,
        artistUrl: 'https://soundcloud.com/example-artist',
      },
    });
    expect(results[1]).toMatchObject({
      snippet: '',
      publishedDate: '2021-11-05T00:00:00.000Z',
      thumbnail: 'https://i1.sndcdn.com/avatars-000222-bbb-large.jpg',
    });
  });

  it('sends the client_id and pages with offset', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'night drive', page: 3 })).url,
    );
    expect(url.origin + url.pathname).toBe('https://api-v2.soundcloud.com/search/tracks');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'night drive',
      client_id: 'test-key',
      limit: '20',
      offset: '40',
    });
  });

  it('maps an expired client_id and odd answers to typed errors', () => {
    expect(() => parse('{"error":"unauthorized"}', 401)).toThrow(EngineAccessDeniedError);
    expect(() => parse('{"errors":[]}')).toThrow(EngineParseError);
  });
});
