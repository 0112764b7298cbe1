import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
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
  fixtures: [{ file: 'hello-world.json', query: 'hello world', contentType: 'application/json' }],
});

describe('brave_videos', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('parses the recorded hello world answer into video results', () => {
    const ctx = testContext(loaded.manifest, { query: 'hello world' });
    const body = readFixture(engineDir, 'hello-world.json');
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    expect(step.results).toHaveLength(20);
    expect(step.results[0]).toMatchObject({
      url: 'https://www.youtube.com/watch?v=Yw6u6YkTgQ4',
      title: 'hello world - YouTube',
      author: 'Louie Zong',
      publishedDate: '2018-03-30T17:57:36.000Z',
      extra: { duration: '01:56', views: 6588953, publisher: 'YouTube' },
    });
    expect(step.results[2]).toMatchObject({
      url: 'https://www.youtube.com/watch?v=u7JMhVI7taQ',
      title: 'Alan Walker & Torine - Hello World (Official Music Video) - YouTube',
      author: 'Alan Walker',
    });
    expect(step.results[0]!.thumbnail).toMatch(/^https:\/\/imgs\.search\.brave\.com\//);
  });

  it('sends the token and the query parameters', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 12, timeRange: 'year', safeSearch: 2, language: 'all' }),
    );
    expect(request.url).toBe(
      'https://api.search.brave.com/res/v1/videos/search?q=rust&count=20&offset=9&freshness=py&safesearch=strict',
    );
    expect(request.headers?.['x-subscription-token']).toBe('test-key');
  });
});
