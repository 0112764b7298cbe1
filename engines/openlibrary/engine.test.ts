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
  fixtures: [{ file: 'search.json', query: 'lord of the rings', contentType: 'application/json' }],
});

describe('openlibrary parser', () => {
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

  it('reads works with authors, year and cover (hand-made fixture)', () => {
    const results = parse('search.json', 'lord of the rings');
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://openlibrary.org/works/OL27448W',
      title: 'The Lord of the Rings',
      authors: ['J.R.R. Tolkien'],
      publishedDate: '1954',
      thumbnail: 'https://covers.openlibrary.org/b/id/14625765-M.jpg',
    });
    expect(results[1]!.title).toBe('The Hobbit: or There and Back Again');
    expect(results[2]!.thumbnail).toBeUndefined();
  });
});
