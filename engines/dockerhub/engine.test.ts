import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineResult } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = new URL('.', import.meta.url).pathname;

runEngineConformance(engineDir, {
  fixtures: [{ file: 'catalog-search.json', query: 'nginx', contentType: 'application/json' }],
});

describe('dockerhub parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'application/json',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('links official images under /_/ and others under /r/ (hand-made fixture)', () => {
    const results = parse('catalog-search.json', 'nginx');
    expect(results[0]).toMatchObject({
      url: 'https://hub.docker.com/_/nginx',
      title: 'nginx',
      snippet: 'Official build of Nginx.',
      author: 'Docker',
    });
    expect(results[1]).toMatchObject({ url: 'https://hub.docker.com/r/bitnami/nginx', title: 'bitnami/nginx' });
    expect(results[1]!.thumbnail).toBeUndefined();
  });
});
