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
  fixtures: [{ file: 'search.json', query: 'pacman', contentType: 'application/json' }],
});

describe('archwiki parser', () => {
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

  it('builds a MediaWiki list=search request with offset paging', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'pacman', page: 2 })).url);
    expect(url.pathname).toBe('/api.php');
    expect(url.searchParams.get('list')).toBe('search');
    expect(url.searchParams.get('srsearch')).toBe('pacman');
    expect(url.searchParams.get('sroffset')).toBe('10');
  });

  it('reads hits into article URLs with highlight markup removed (hand-made fixture)', () => {
    const results = parse('search.json', 'pacman');
    expect(results[0]).toMatchObject({ url: 'https://wiki.archlinux.org/title/Pacman', title: 'Pacman' });
    expect(results[0]!.snippet.startsWith('pacman is the package manager & it combines')).toBe(true);
    expect(results[1]!.url).toBe('https://wiki.archlinux.org/title/Pacman/Tips_and_tricks');
  });
});
