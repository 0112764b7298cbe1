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
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-energiewende.json', query: 'Energiewende', contentType: JSON_TYPE },
    { file: 'search-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('tagesschau', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'Energiewende' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses stories and videos (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'search-energiewende.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://www.tagesschau.de/wirtschaft/energiewende-netzausbau-100.html',
      title: 'Netzausbau kommt schneller voran als erwartet',
      snippet: 'Die Übertragungsnetzbetreiber haben im vergangenen Jahr mehr Leitungen gebaut als geplant.',
      publishedDate: '2024-04-10T12:32:05.000Z',
      thumbnail: 'https://images.tagesschau.de/image/0123abcd/16x9-256.jpg',
      extra: { topline: 'Energiewende', type: 'story', tags: ['Energiewende', 'Stromnetz'] },
    });
    // A video without detailsweb links to its shareURL; without a first sentence the topline is the snippet.
    expect(results[1]).toMatchObject({
      url: 'https://www.tagesschau.de/multimedia/video/video-1234567.html',
      title: 'Wärmepumpen: Was Hausbesitzer & Mieter jetzt wissen müssen',
      snippet: 'Heizungsgesetz',
      publishedDate: '2024-04-09T18:00:00.000Z',
      thumbnail: 'https://images.tagesschau.de/image/4567ef01/1x1-144.jpg',
      extra: { type: 'video' },
    });
  });

  it('rejects answers without searchResults', () => {
    expect(() => parse('{"error":"internal"}')).toThrow(EngineParseError);
  });

  it('asks for 0-based result pages', () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Bundestag Wahl', page: 2 }));
    expect(request.url).toBe(
      'https://www.tagesschau.de/api2u/search/?searchText=Bundestag+Wahl&pageSize=20&resultPage=1',
    );
  });
});
