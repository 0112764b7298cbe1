import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError, EngineParseError } from '../../core/engine.js';
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
  fixtures: [{ file: 'search-statuses.json', query: 'open source search', contentType: 'application/json' }],
});

describe('mastodon', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'open source search' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json', status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses statuses into text results', () => {
    const results = parse(readFixture(engineDir, 'search-statuses.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://fosstodon.org/@alice/113512345678901234',
      title: "Alice :verified:: Just released v2.0 of our #OpenSource search tool & it's fast! Changelog: example…",
      snippet: "Just released v2.0 of our #OpenSource search tool & it's fast! Changelog: example.org/changelog",
      author: '@alice@fosstodon.org',
      publishedDate: '2024-11-20T14:03:27.512Z',
      thumbnail: 'https://files.example.social/media_attachments/small/shot.png',
      extra: {
        replies: 4,
        boosts: 27,
        favourites: 88,
        language: 'en',
        media: 1,
        accountUrl: 'https://fosstodon.org/@alice',
      },
    });
    expect(results[1]).toMatchObject({
      title: 'bob: CW: search engine rant',
      snippet: 'CW: search engine rant — Open source search deserves better docs.',
      author: '@bob',
      thumbnail: 'https://files.example.social/accounts/avatars/bob.png',
      extra: { sensitive: true },
    });
  });

  it('sends the token to the configured instance and pages with offset', () => {
    const ctx = testContext(loaded.manifest, { query: '#rust', page: 2 }, 'https://hachyderm.io');
    const request = loaded.engine.buildRequest(ctx);
    expect(request.url).toBe(
      'https://hachyderm.io/api/v2/search?q=%23rust&type=statuses&limit=20&offset=20&resolve=false',
    );
    expect(request.headers?.authorization).toBe('Bearer test-key');
  });

  it('maps errors', () => {
    expect(() => parse('{"error":"The access token is invalid"}', 401)).toThrow(EngineAccessDeniedError);
    expect(() => parse('{"error":"Search queries must be at least…"}')).toThrow(EngineParseError);
    expect(parse('{"accounts":[],"statuses":[],"hashtags":[]}')).toEqual([]);
  });
});
