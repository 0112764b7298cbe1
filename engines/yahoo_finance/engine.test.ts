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

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-apple.json', query: 'apple', contentType: JSON_TYPE },
    { file: 'search-none.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('yahoo_finance', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'apple' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('turns quotes into quote pages and news into dated stories (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'search-apple.json'));
    expect(results).toHaveLength(5);
    expect(results[0]).toEqual({
      url: 'https://finance.yahoo.com/quote/AAPL/',
      title: 'Apple Inc. (AAPL)',
      snippet: 'Equity · NASDAQ · Technology / Consumer Electronics',
      extra: {
        symbol: 'AAPL',
        quoteType: 'EQUITY',
        exchange: 'NMS',
        exchangeName: 'NASDAQ',
        sector: 'Technology',
        industry: 'Consumer Electronics',
      },
    });
    expect(results[1]).toMatchObject({ url: 'https://finance.yahoo.com/quote/AAPL.NE/', extra: { exchange: 'NEO' } });
    expect(results[1]!.extra).not.toHaveProperty('exchangeName');
    expect(results[2]).toMatchObject({
      title: 'AAPL Jun 2026 200.000 call (AAPL260619C00200000)',
      snippet: 'Option · OPR',
    });
    expect(results[3]).toEqual({
      url: 'https://finance.yahoo.com/news/apple-services-revenue-record-123000456.html',
      title: "Apple's services revenue hits a record as iPhone sales slow",
      snippet: 'Example Wire',
      author: 'Example Wire',
      publishedDate: '2024-05-02T12:00:00.000Z',
      thumbnail: 'https://s.yimg.com/uu/api/res/1.2/example/original.jpg',
      extra: { type: 'news', relatedTickers: ['AAPL', 'MSFT'] },
    });
    expect(results[4]).toMatchObject({
      title: 'Three things to watch before Apple reports earnings',
      publishedDate: '2024-05-01T12:00:00.000Z',
    });
    expect(results[4]!.thumbnail).toBeUndefined();
  });

  it('types error answers', () => {
    expect(() =>
      parse(
        '{"finance":{"result":null,"error":{"code":"Bad Request","description":"Missing required query parameter=q"}}}',
        400,
      ),
    ).toThrow(EngineParseError);
    expect(() => parse('Too Many Requests', 429)).toThrow(EngineRateLimitedError);
  });

  it('asks for quotes and news in one request', () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'BRK B', page: 2 }));
    expect(request.url).toBe(
      'https://query2.finance.yahoo.com/v1/finance/search?q=BRK+B&quotesCount=10&newsCount=10&lang=en-US&region=US',
    );
  });
});
