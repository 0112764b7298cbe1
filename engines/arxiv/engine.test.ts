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
const ATOM = 'application/atom+xml; charset=utf-8';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'testing.xml', query: 'testing', contentType: ATOM },
    { file: 'empty.xml', query: 'nothing', contentType: ATOM, expectResults: false },
  ],
});

describe('arxiv', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string) => {
    const ctx = testContext(loaded.manifest, { query: 'testing' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, file), ATOM),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the entries of the recorded feed', () => {
    const results = parse('testing.xml');
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({
      url: 'https://arxiv.org/abs/2202.12139v1',
      title: 'Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques',
      publishedDate: '2022-02-24T15:05:19Z',
      authors: ['Mohit Kumar Ahuja', 'Arnaud Gotlieb', 'Helge Spieker'],
      author: 'Mohit Kumar Ahuja',
      doi: '10.1109/ICSTW55395.2022.00035',
      extra: { pdfUrl: 'https://arxiv.org/pdf/2202.12139v1', primaryCategory: 'cs.SE' },
    });
    expect(results[0]!.snippet).toMatch(/^Deep Learning \(DL\) has revolutionized/);
    expect(results[1]!.title).toBe('Towards Explainable Test Case Prioritisation with Learning-to-Rank Models');
    expect(results.filter((r) => r.doi)).toHaveLength(6);
  });

  it('raises a parse error for the 400 error feed and for a non-feed body', () => {
    expect(() => parse('error-400.xml')).toThrow(EngineParseError);
    expect(() => parse('empty.xml')).not.toThrow();
    const ctx = testContext(loaded.manifest, { query: 'x' });
    expect(() =>
      loaded.engine.parseResponse(
        testResponse(loaded.engine.buildRequest(ctx), '<html>Service unavailable</html>'),
        ctx,
      ),
    ).toThrow(EngineParseError);
  });

  it('pages with start and max_results', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'graph neural', page: 3 })).url,
    );
    expect(url.origin + url.pathname).toBe('https://export.arxiv.org/api/query');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search_query: 'all:graph neural',
      start: '20',
      max_results: '10',
    });
  });
});
