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
import { releaseDate } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made pages; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search.html', query: 'lofi' },
    { file: 'no-results.html', query: 'qqqzzzxxx', expectResults: false },
  ],
});

describe('bandcamp', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'lofi' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses albums, tracks and artists without tracking parameters', () => {
    const results = parse(readFixture(engineDir, 'search.html'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://chillhopmusic.bandcamp.com/album/lofi-summer',
      title: 'Lofi Summer & Friends',
      snippet: 'by Chillhop Music · 14 tracks, 38 minutes · tags: lo-fi, hip-hop, chillhop, Rotterdam',
      author: 'Chillhop Music',
      publishedDate: '2020-07-03',
      thumbnail: 'https://f4.bcbits.com/img/a1234567890_7.jpg',
      extra: { itemType: 'album', length: '14 tracks, 38 minutes' },
    });
    expect(results[1]).toMatchObject({
      url: 'https://sleepyfish.bandcamp.com/track/beneath-the-lights',
      author: 'Sleepy Fish',
      publishedDate: '2019-02-14',
      extra: { itemType: 'track' },
    });
    expect(results[2]).toMatchObject({
      url: 'https://lofigirl.bandcamp.com/',
      title: 'Lofi Girl',
      extra: { itemType: 'artist', genre: 'electronic' },
    });
    expect(results[2]!.author).toBeUndefined();
  });

  it('pages with page= and reads release dates', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'lo fi', page: 2 })).url).toBe(
      'https://bandcamp.com/search?q=lo+fi&page=2',
    );
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'lo fi' })).url).toBe(
      'https://bandcamp.com/search?q=lo+fi',
    );
    expect(releaseDate('released December 1, 1999')).toBe('1999-12-01');
    expect(releaseDate('soon')).toBeUndefined();
  });
});
