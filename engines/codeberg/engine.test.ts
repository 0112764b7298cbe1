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
  fixtures: [{ file: 'repos-search.json', query: 'forgejo', contentType: 'application/json' }],
});

describe('codeberg', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'forgejo' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses repositories', () => {
    const results = parse(readFixture(engineDir, 'repos-search.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://codeberg.org/forgejo/forgejo',
      title: 'forgejo/forgejo',
      snippet: 'Beyond coding. We forge.',
      author: 'forgejo',
      publishedDate: '2024-11-30T07:15:00.000Z',
      thumbnail: 'https://codeberg.org/repo-avatars/bbbbbbbb',
      extra: {
        stars: 2310,
        forks: 410,
        language: 'Go',
        topics: ['forge', 'git', 'self-hosted'],
        created: '2022-11-12T09:00:00.000Z',
      },
    });
    expect(results[1]).toMatchObject({
      title: 'someone/forgejo-runner-config',
      snippet: '',
      thumbnail: 'https://codeberg.org/avatars/cccc',
      extra: { fork: true, archived: true },
    });
  });

  it('pages, sends an optional token and rejects failed answers', () => {
    const ctx = testContext(loaded.manifest, { query: 'static site', page: 2 });
    const request = loaded.engine.buildRequest(ctx);
    expect(request.url).toBe(
      'https://codeberg.org/api/v1/repos/search?q=static+site&page=2&limit=20&sort=updated&order=desc',
    );
    expect(request.headers?.authorization).toBe('token test-key');
    expect(() => parse('{"ok":false,"data":null,"message":"search failed"}')).toThrow(EngineParseError);
  });
});
