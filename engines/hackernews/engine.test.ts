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
  fixtures: [{ file: 'search.json', query: 'hiring', contentType: 'application/json' }],
});

describe('hackernews parser', () => {
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

  it('asks Algolia for 0-based pages of stories', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust', page: 2 })).url);
    expect(url.pathname).toBe('/api/v1/search');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('tags')).toBe('story');
  });

  it('links to the story, or to the discussion for text posts (hand-made fixture)', () => {
    const results = parse('search.json', 'hiring');
    expect(results[0]).toMatchObject({
      url: 'http://ycombinator.com',
      title: 'Y Combinator',
      snippet: '57 points, 15 comments',
      author: 'pg',
    });
    expect(results[1]).toMatchObject({
      url: 'https://news.ycombinator.com/item?id=41425910',
      title: 'Ask HN: Who is hiring? (September 2024)',
    });
    expect(results[1]!.snippet).toContain('location & include REMOTE');
  });
});
