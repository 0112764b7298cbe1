import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
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
  fixtures: [{ file: 'search-videos.json', query: 'fediverse', contentType: 'application/json' }],
});

describe('sepiasearch', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'fediverse' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses index results that point at their home instances', () => {
    const results = parse(readFixture(engineDir, 'search-videos.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      url: 'https://framatube.org/videos/watch/9f3c2a10-5e6d-4b7a-8c9d-0e1f2a3b4c5d',
      title: 'What is the Fediverse?',
      snippet: 'An introduction to federated social networks & PeerTube.',
      publishedDate: '2021-05-11T09:12:45.000Z',
      author: 'Framasoft',
      thumbnail: 'https://framatube.org/static/thumbnails/9f3c2a10-5e6d-4b7a-8c9d-0e1f2a3b4c5d.jpg',
      extra: {
        duration: '3:47',
        views: 48211,
        embedUrl: 'https://framatube.org/videos/embed/9f3c2a10-5e6d-4b7a-8c9d-0e1f2a3b4c5d',
      },
    });
    // thumbnailPath is resolved on the video's own host, not on sepiasearch.org.
    expect(results[1]!.thumbnail).toBe(
      'https://tube.example.net/static/thumbnails/1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d.jpg',
    );
    expect(results[1]!.extra).toMatchObject({ duration: '5:01' });
  });

  it('answers an empty data array with no results', () => {
    expect(parse('{"total":0,"data":[]}')).toEqual([]);
  });

  it('builds the search request on sepiasearch.org', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'fediverse', page: 2, language: 'de' }),
    );
    expect(request.url).toBe(
      'https://sepiasearch.org/api/v1/search/videos?search=fediverse&start=20&count=20&sort=-match&nsfw=false' +
        '&languageOneOf[]=de',
    );
  });
});
