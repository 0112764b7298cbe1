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
import { unwrapBingNewsLink } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made feed (no real Bing News RSS capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'news.rss', query: 'hello', contentType: 'application/rss+xml; charset=utf-8' }],
});

describe('bing_news', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'hello' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/rss+xml'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the feed, unwrapping apiclick links', () => {
    const results = parse(readFixture(engineDir, 'news.rss'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url:
        'https://www.thehindu.com/sci-tech/technology/internet/clubhouse-app-says-hello-to-android/article34524' +
        '181.ece',
      title: 'Clubhouse app says hello to Android',
      snippet:
        'As an increasing number of platforms are opening up their apps for audio-based chat forums, ' +
        'Clubhouse is doubling its efforts & more…',
      publishedDate: '2021-05-10T04:30:00.000Z',
      thumbnail: 'http://www.bing.com/th?id=ON.4C8E5A8A2B1D4C7D&pid=News',
      extra: { source: 'The Hindu' },
    });
    expect(results[1]).toMatchObject({
      url: 'https://atwoodmagazine.com/hcvl-hello-hollow-coves-song-video-premiere/',
      extra: { source: 'Atwood Magazine' },
    });
    expect(unwrapBingNewsLink('https://example.org/direct')).toBe('https://example.org/direct');
  });

  it('rejects an HTML page where RSS was expected', () => {
    expect(() => parse('<html><body>Bing</body></html>')).toThrow(EngineParseError);
  });

  it('builds the RSS request', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2, timeRange: 'week', language: 'de' }),
    );
    expect(request.url).toBe(
      'https://www.bing.com/news/search?q=rust&format=rss&first=11&setlang=de&qft=interval%3D%228%22',
    );
  });
});
