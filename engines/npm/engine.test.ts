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
  fixtures: [{ file: 'search.json', query: 'express', contentType: 'application/json' }],
});

describe('npm', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'express' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses packages', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://www.npmjs.com/package/express',
      title: 'express',
      snippet: 'Fast, unopinionated, minimalist web framework',
      author: 'wesleytodd',
      publishedDate: '2024-10-08T15:39:20.062Z',
      extra: {
        version: '4.21.1',
        license: 'MIT',
        repository: 'https://github.com/expressjs/express',
        homepage: 'http://expressjs.com/',
        weeklyDownloads: 38554120,
      },
    });
    expect(results[1]).toMatchObject({
      url: 'https://www.npmjs.com/package/@types/express',
      title: '@types/express',
      author: 'DefinitelyTyped',
    });
    expect(results[2]).toMatchObject({
      url: 'https://www.npmjs.com/package/express-session',
      snippet: 'Simple session middleware for Express <3',
    });
  });

  it('pages with size and from', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'react hooks', page: 3 })).url).toBe(
      'https://registry.npmjs.org/-/v1/search?text=react+hooks&size=20&from=40',
    );
    expect(() => parse('{"error":"text is required"}')).toThrow(EngineParseError);
  });
});
