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
  fixtures: [{ file: 'search-videos.json', query: 'blender', contentType: 'application/json' }],
});

describe('peertube', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, baseUrl?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'blender' }, baseUrl);
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the search answer into video results', () => {
    const results = parse(readFixture(engineDir, 'search-videos.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://peertube.tv/videos/watch/0b2e8c51-6f1c-4a57-9d2a-3c6b1f4e2a11',
      title: 'Blender basics: modelling a low-poly tree',
      snippet: "A short walk through Blender 's modelling tools & modifiers.",
      publishedDate: '2023-03-02T10:20:31.512Z',
      author: 'Maker Lab',
      thumbnail: 'https://peertube.tv/lazy-static/thumbnails/0b2e8c51-6f1c-4a57-9d2a-3c6b1f4e2a11.jpg',
      extra: {
        duration: '12:34',
        durationSeconds: 754,
        views: 1289,
        embedUrl: 'https://peertube.tv/videos/embed/0b2e8c51-6f1c-4a57-9d2a-3c6b1f4e2a11',
        channel: 'Maker Lab Tutorials',
      },
    });
    // A federated video: thumbnail on its home instance, account without display name falls back to its name.
    expect(results[1]).toMatchObject({
      thumbnail: 'https://video.example.org/lazy-static/thumbnails/7d1f0e22-2b9a-4cd0-8e11-5a0f6c3b9d42.jpg',
      author: 'ana',
      snippet: '',
      extra: { duration: '1:02:05' },
    });
    // No url: the watch page on the configured instance; a live video has no duration.
    expect(results[2]!.url).toBe('https://peertube.tv/videos/watch/c4a9e6b0-91d3-4f2e-a7c5-0e8d2b6f1a73');
    expect(results[2]!.extra).toMatchObject({ live: true });
    expect(results[2]!.extra).not.toHaveProperty('duration');
  });

  it('falls back to the configured instance for the watch page', () => {
    const body = JSON.stringify({
      total: 1,
      data: [{ uuid: 'abc', name: 'Local video', thumbnailPath: '/t/abc.jpg' }],
    });
    expect(parse(body, 'https://tube.example.com')[0]).toMatchObject({
      url: 'https://tube.example.com/videos/watch/abc',
      thumbnail: 'https://tube.example.com/t/abc.jpg',
    });
  });

  it('raises a parse error on an API error answer', () => {
    expect(() =>
      parse(JSON.stringify({ type: 'about:blank', title: 'Bad Request', error: 'Incorrect request parameters' })),
    ).toThrow(EngineParseError);
  });

  it('pages, filters nsfw and language on the configured instance', () => {
    const request = loaded.engine.buildRequest(
      testContext(
        loaded.manifest,
        { query: 'open source', page: 3, safeSearch: 0, language: 'fr' },
        'https://tube.example.com',
      ),
    );
    expect(request.url).toBe(
      'https://tube.example.com/api/v1/search/videos?search=open+source&start=40&count=20&sort=-match&nsfw=bo' +
        'th&languageOneOf[]=fr',
    );
    const plain = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'x', language: 'all', safeSearch: 2 }),
    );
    expect(plain.url).toBe('https://peertube.tv/api/v1/search/videos?search=x&start=0&count=20&sort=-match&nsfw=false');
  });
});
