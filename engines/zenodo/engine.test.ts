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
  fixtures: [{ file: 'records.json', query: 'glacier', contentType: 'application/json' }],
});

describe('zenodo', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'glacier' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses records', () => {
    const results = parse(readFixture(engineDir, 'records.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://zenodo.org/records/7634567',
      title: 'Global glacier mass change dataset (2000–2019)',
      snippet: 'Gridded estimates of glacier elevation & mass change. Version 2 adds uncertainty layers.',
      authors: ['Hugonnet, Romain', 'McNabb, Robert'],
      author: 'Hugonnet, Romain',
      publishedDate: '2023-02-10',
      doi: '10.5281/zenodo.7634567',
      extra: {
        id: 7634567,
        resourceType: 'Dataset',
        accessRight: 'open',
        license: 'cc-by-4.0',
        keywords: ['glaciers', 'remote sensing'],
        downloads: 1520,
      },
    });
    expect(results[1]).toMatchObject({
      url: 'https://zenodo.org/record/1234567',
      title: 'glacier-tools: scripts for glacier mass balance',
      publishedDate: '2018-06',
      doi: '10.5281/zenodo.1234567',
      extra: { resourceType: 'software', license: 'mit-license' },
    });
    expect(results[2]).toMatchObject({ url: 'https://zenodo.org/records/999', snippet: '' });
    expect(results[2]!.publishedDate).toBeUndefined();
  });

  it('pages and rejects error answers', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'climate model', page: 3 })).url).toBe(
      'https://zenodo.org/api/records?q=climate+model&page=3&size=10&sort=bestmatch',
    );
    expect(() => parse('{"status":400,"message":"Invalid query string syntax."}')).toThrow(EngineParseError);
  });
});
