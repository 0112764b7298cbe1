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
  fixtures: [{ file: 'search.html', query: 'sqlalchemy', contentType: 'text/html; charset=utf-8' }],
});

describe('pypi parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'text/html; charset=utf-8',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('pages with page=N from the second page on', () => {
    const url = (page: number) =>
      new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'sqlalchemy', page })).url);
    expect(url(1).pathname).toBe('/search/');
    expect(url(1).searchParams.get('page')).toBeNull();
    expect(url(3).searchParams.get('page')).toBe('3');
  });

  it('reads the captured search page', () => {
    const results = parse('search.html', 'sqlalchemy');
    expect(results).toHaveLength(20);
    expect(results[0]).toMatchObject({
      url: 'https://pypi.org/project/sqlalchemy/',
      title: 'SQLAlchemy',
      snippet: 'Database Abstraction Library',
    });
    expect(results[0]!.extra).toMatchObject({ version: '1.3.10' });
    expect(results[2]).toMatchObject({
      url: 'https://pypi.org/project/graphene-sqlalchemy/',
      title: 'graphene-sqlalchemy',
    });
  });
});
