import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { lemmyDate } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-posts.json', query: 'search engine', contentType: 'application/json' }],
});

describe('lemmy', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'search engine' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses posts and skips removed ones', () => {
    const results = parse(readFixture(engineDir, 'search-posts.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://lemmy.world/post/9876543',
      title: 'Self-hosted search engines in 2024 — what do you use?',
      snippet: "I've been running SearXNG for a year. Looking at alternatives & meta-search tools.",
      author: 'Self Hoster',
      publishedDate: '2024-03-14T15:09:26.535Z',
      thumbnail: 'https://lemmy.world/pictrs/image/thumb-abc.webp',
      extra: { community: 'selfhosted', communityUrl: 'https://lemmy.world/c/selfhosted', score: 610, comments: 142 },
    });
    expect(results[1]).toEqual({
      url: 'https://programming.dev/post/120001',
      title: 'Open source search engine released',
      snippet: 'https://example.org/blog/release',
      author: 'newsbot',
      publishedDate: '2023-06-10T12:00:00.123Z',
      extra: {
        link: 'https://example.org/blog/release',
        community: 'opensource',
        communityUrl: 'https://programming.dev/c/opensource',
        score: 25,
        comments: 3,
      },
    });
  });

  it('queries the configured instance, pages and maps errors', () => {
    const url = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2 }, 'https://lemmy.ml'),
    ).url;
    expect(url).toBe('https://lemmy.ml/api/v3/search?q=rust&type_=Posts&sort=TopAll&listing_type=All&page=2&limit=20');
    expect(() => parse('{"error":"rate_limit_error"}')).toThrow(EngineRateLimitedError);
    expect(() => parse('{"error":"couldnt_find_community"}')).toThrow(EngineParseError);
    expect(lemmyDate('2023-06-10T12:00:00')).toBe('2023-06-10T12:00:00.000Z');
    expect(lemmyDate('yesterday')).toBeUndefined();
  });
});
