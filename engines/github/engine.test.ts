import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json; charset=utf-8';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-issues.json', query: 'sesame', contentType: JSON_TYPE },
    { file: 'search-repositories-hand-made.json', query: 'quarry', contentType: JSON_TYPE },
  ],
});

describe('github', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'sesame' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded issue search', () => {
    const results = parse(readFixture(engineDir, 'search-issues.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      title: 'Sesame seeds split without a pop!',
      url: 'https://github.com/octokit-fixture-org/tmp-scenario-search-issues-20220719044045959-jlcli/issues/2',
      snippet: 'I’ve waited all year long, but there was no pop 😭',
      author: 'octokit-fixture-user-b',
      publishedDate: '2022-07-19T04:40:52Z',
      extra: { type: 'issue', state: 'open' },
    });
    expect(results[1]!.title).toBe('The doors don’t open');
  });

  it('parses repository items with stars in extra', () => {
    const results = parse(readFixture(engineDir, 'search-repositories-hand-made.json'));
    expect(results[0]).toMatchObject({
      title: 'example-org/quarry-example',
      url: 'https://github.com/example-org/quarry-example',
      snippet: 'An example repository for a self-hosted search & scraping service',
      extra: { type: 'repository', stars: 1234, language: 'TypeScript', license: 'Apache-2.0' },
    });
    expect(results[1]).toMatchObject({
      title: 'someone/tiny-crawler',
      snippet: '',
      extra: { stars: 3, language: null },
    });
  });

  it('maps the rate-limit message to a typed error', () => {
    expect(() =>
      parse(
        '{"message":"API rate limit exceeded for 203.0.113.1.","documentation_url":"https://docs.github.com/rest"}',
      ),
    ).toThrow(EngineRateLimitedError);
  });

  it('sends the token only when configured', () => {
    const ctx = testContext(loaded.manifest, { query: 'search engine', page: 2 });
    const request = loaded.engine.buildRequest(ctx);
    expect(request.headers).toMatchObject({ accept: 'application/vnd.github+json', authorization: 'Bearer test-key' });
    expect(request.url).toBe('https://api.github.com/search/repositories?q=search+engine&page=2&per_page=10');
    const { apiKey: _unused, ...withoutKey } = ctx.settings;
    expect(loaded.engine.buildRequest({ ...ctx, settings: withoutKey }).headers).not.toHaveProperty('authorization');
  });
});
