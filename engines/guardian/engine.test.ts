import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError, EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-climate.json', query: 'climate', contentType: JSON_TYPE },
    { file: 'search-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('guardian', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'climate' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses articles with trail text, byline and section (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'search-climate.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.theguardian.com/environment/2024/mar/19/climate-crisis-record-ocean-heat',
      title: 'Oceans absorbed record heat last year, scientists say',
      snippet: 'Exclusive: Sea surface temperatures broke records on 300 days – and the trend is accelerating',
      publishedDate: '2024-03-19T11:00:12.000Z',
      author: 'Jane Example Environment correspondent',
      thumbnail: 'https://media.guim.co.uk/0123456789abcdef/0_0_5000_3000/500.jpg',
      extra: {
        section: 'Environment',
        type: 'article',
        id: 'environment/2024/mar/19/climate-crisis-record-ocean-heat',
        pillar: 'News',
      },
    });
    expect(results[1]).toMatchObject({
      title: 'Voters want climate action & lower bills. Both are possible',
      snippet: 'It is a false choice, writes John Example',
    });
    expect(results[2]).toMatchObject({ title: 'Climate summit – live', snippet: '', extra: { type: 'liveblog' } });
  });

  it('maps error answers to typed errors or no results', () => {
    expect(
      parse('{"response":{"status":"error","message":"requested page is beyond the number of available pages"}}', 400),
    ).toEqual([]);
    expect(() => parse('{"message":"Unauthorized"}', 401)).toThrow(EngineAccessDeniedError);
    expect(() => parse('{"response":{"status":"error","message":"The api key provided is invalid"}}')).toThrow(
      EngineAccessDeniedError,
    );
    expect(() => parse('{"message":"API rate limit exceeded"}', 429)).toThrow(EngineRateLimitedError);
    expect(() => parse('{"response":{"status":"error","message":"Invalid order-by"}}', 400)).toThrow(EngineParseError);
  });

  it('pages and sends the key and fields', () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'net zero', page: 3 }));
    expect(request.url).toBe(
      'https://content.guardianapis.com/search?q=net+zero&page=3&page-size=10&order-by=relevance&show-fields=' +
        'trailText%2Cthumbnail%2Cbyline&api-key=test-key',
    );
  });
});
