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

runEngineConformance(engineDir, {
  fixtures: [{ file: 'search_page.json', query: 'tr-909', contentType: 'application/json' }],
});

describe('freesound', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'tr-909' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json', status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded sounds', () => {
    const results = parse(readFixture(engineDir, 'search_page.json'));
    expect(results).toHaveLength(6);
    expect(results[0]).toMatchObject({
      url: 'https://freesound.org/people/GRD-music-/sounds/414963/',
      title: 'Classic_TR_909_SnareRev_JdXi_3',
      snippet: 'TR-909 Drum Hits All Sampled From My Roland JdXi Synth www.grdmusic.com',
      author: 'GRD-music-',
      publishedDate: '2018-01-08T02:48:29',
      extra: {
        id: 414963,
        durationSeconds: 0.590625,
        license: 'http://creativecommons.org/publicdomain/zero/1.0/',
        previewUrl: 'https://freesound.org/data/previews/414/414963_8070456-hq.mp3',
        fileType: 'wav',
      },
    });
    // Descriptions carry links as HTML; the snippet keeps only their text.
    expect(results[1]!.snippet).toBe('Classic TR-909 hits Made with my Roland JdXi synth https://www.grdmusic.com');
    expect(results[5]).toMatchObject({ title: 'Ehh disinterested.wav', author: 'owly-bee' });
  });

  it('reads the documented envelope too', () => {
    const sounds = JSON.parse(readFixture(engineDir, 'search_page.json')) as unknown[];
    const envelope = JSON.stringify({ count: 6, next: null, previous: null, results: sounds.slice(0, 2) });
    expect(parse(envelope).map((result) => result.extra?.id)).toEqual([414963, 414969]);
  });

  it('sends the token and pages', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rain on roof', page: 2 })).url,
    );
    expect(url.origin + url.pathname).toBe('https://freesound.org/apiv2/search/text/');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      query: 'rain on roof',
      page: '2',
      page_size: '15',
      token: 'test-key',
    });
  });

  it('maps errors', () => {
    expect(() => parse('{"detail":"Invalid token."}', 401)).toThrow(EngineAccessDeniedError);
    expect(parse('{"detail":"Invalid page."}', 404)).toEqual([]);
    expect(() => parse('{"detail":"Something"}')).toThrow(EngineParseError);
  });
});
