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
  fixtures: [{ file: 'search-articles.json', query: 'coral reef bleaching', contentType: 'application/json' }],
});

describe('doaj', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'coral reef bleaching' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses article records', () => {
    const results = parse(readFixture(engineDir, 'search-articles.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://www.example-journal.org/article/view/42',
      title: 'Marine heatwaves and coral reef bleaching in the Western Indian Ocean',
      authors: ['Amani Mwangi', 'Jean-Luc Pierre'],
      author: 'Amani Mwangi',
      publishedDate: '2021-07',
      doi: '10.1234/wio.2021.0042',
      extra: {
        doajUrl: 'https://doaj.org/article/0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        journal: 'Western Indian Ocean Journal of Marine Science',
        publisher: 'WIOMSA',
      },
    });
    expect(results[0]!.snippet).toMatch(/^Coral reef bleaching events have become more frequent & severe\./);
    expect(results[1]).toMatchObject({
      url: 'https://doi.org/10.5555/sym.2019.7',
      doi: '10.5555/sym.2019.7',
      publishedDate: '2019',
      snippet: '',
    });
    expect(results[2]).toMatchObject({
      url: 'https://doaj.org/article/12345678901234567890123456789012',
      title: 'Reef monitoring notes',
    });
    expect(results[2]!.publishedDate).toBeUndefined();
  });

  it('puts the query in the path and pages', () => {
    expect(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'title:"open access"/x', page: 2 })).url,
    ).toBe('https://doaj.org/api/search/articles/title%3A%22open%20access%22%2Fx?page=2&pageSize=10');
    expect(() => parse('{"error":"Query contains disallowed Elasticsearch parameter"}')).toThrow(EngineParseError);
  });
});
