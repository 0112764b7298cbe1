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

runEngineConformance(engineDir, {
  fixtures: [{ file: 'videos-search.json', query: 'northern lights', contentType: 'application/json' }],
});

describe('dailymotion', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'northern lights' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the list into video results', () => {
    const results = parse(readFixture(engineDir, 'videos-search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.dailymotion.com/video/x8p1k2q',
      title: 'Northern lights over Tromsø & the fjords',
      snippet: 'Time-lapse of the aurora borealis filmed over three nights in northern Norway.',
      publishedDate: '2023-11-16T08:30:56.000Z',
      thumbnail: 'https://s1.dmcdn.net/v/Vx1aB0Zf3kLmN9pQ/x360',
      extra: { duration: '3:05', durationSeconds: 185 },
    });
    expect(results[1]!.extra).toEqual({ duration: '1:07:01', durationSeconds: 4021 });
    expect(results[2]!.extra).toBeUndefined();
  });

  it('raises a parse error on an API error answer', () => {
    const body = JSON.stringify({
      error: { code: 400, message: 'Invalid value for `limit` parameter', type: 'invalid_parameter' },
    });
    expect(() => parse(body)).toThrow(EngineParseError);
  });

  it('asks for the listed fields with paging, family filter and language', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'cats', page: 2, safeSearch: 0, language: 'fr' }),
    );
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('https://api.dailymotion.com/videos');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: 'cats',
      fields: 'id,title,description,thumbnail_360_url,duration,created_time,url',
      sort: 'relevance',
      limit: '20',
      page: '2',
      family_filter: 'false',
      languages: 'fr',
      private: '0',
      password_protected: '0',
    });
  });
});
