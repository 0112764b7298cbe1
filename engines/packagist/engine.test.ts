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

// Hand-made fixture; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'monolog', contentType: 'application/json' }],
});

describe('packagist', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'monolog' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses packages', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(4);
    expect(results[0]).toEqual({
      url: 'https://packagist.org/packages/monolog/monolog',
      title: 'monolog/monolog',
      snippet: 'Sends your logs to files, sockets, inboxes, databases and various web services',
      author: 'monolog',
      extra: { repository: 'https://github.com/Seldaek/monolog', downloads: 853001422, stars: 21012 },
    });
    expect(results[2]).toMatchObject({
      snippet: 'Handlers & formatters for Monolog 1.x < 2.0',
      extra: { abandoned: 'monolog/monolog' },
    });
    expect(results[3]).toMatchObject({
      url: 'https://packagist.org/providers/psr/log-implementation',
      extra: { virtual: true },
    });
  });

  it('pages with page= and rejects odd answers', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'http client', page: 2 })).url).toBe(
      'https://packagist.org/search.json?q=http+client&per_page=15&page=2',
    );
    expect(() => parse('{"status":"error","message":"Missing search query"}')).toThrow(EngineParseError);
  });
});
