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
import { parseStoryAge } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made page (no real Yahoo News capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, { fixtures: [{ file: 'search.html', query: 'hello' }] });

describe('yahoo_news', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('parses stories with decoded links, outlets and dates', () => {
    const ctx = testContext(loaded.manifest, { query: 'hello' });
    const response = testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'search.html'));
    const step = loaded.engine.parseResponse(
      { ...response, headers: { ...response.headers, date: 'Mon, 10 May 2021 22:37:50 GMT' } },
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    expect(step.results).toEqual([
      {
        url: 'https://www.ndtv.com/offbeat/beluga-whale-hello-2438906',
        title: 'Beluga Whale Welcomes Little Boy With A Special "Hello"',
        snippet: 'A beluga whale at an aquarium greeted a little boy with a special hello & the video went viral.',
        publishedDate: '2021-05-10T12:37:50.000Z',
        thumbnail: 'https://s.yimg.com/fz/api/res/1.2/beluga.jpg',
        extra: { source: 'NDTV' },
      },
      {
        url: 'https://www.thefader.com/2021/05/07/young-ma-hello-baby',
        title: 'Young M.A shares “Hello Baby”',
        snippet: 'The rapper announced a new project, Off The Yak.',
        publishedDate: '2021-05-07T00:00:00.000Z',
        extra: { source: 'The FADER' },
      },
    ]);
  });

  it('leaves relative ages undated without a clock', () => {
    expect(parseStoryAge('· 3 days ago', undefined)).toBeUndefined();
    expect(parseStoryAge('· 3 days ago', new Date('2021-05-10T00:00:00Z'))).toBe('2021-05-07T00:00:00.000Z');
  });

  it('pages with b', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust', page: 3 })).url).toBe(
      'https://news.search.yahoo.com/search?p=rust&b=21',
    );
  });
});
