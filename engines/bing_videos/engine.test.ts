import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, { fixtures: [{ file: 'asyncv2-volcano.html', query: 'volcano' }] });

describe('bing_videos', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'volcano' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('reads the vrhm JSON of every tile', () => {
    const results = parse(readFixture(engineDir, 'asyncv2-volcano.html'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.youtube.com/watch?v=lAmqsMQG3RM',
      title: 'How volcanoes work',
      snippet: '2.1M views · 3 years ago · YouTube · Earth & Sky',
      thumbnail: 'https://tse1.mm.bing.net/th?id=OVP.Ab1Cd2Ef3&w=300&h=169&c=7&pid=1.7',
      extra: { duration: '4:13', source: 'youtube.com' },
    });
    // A lazily loaded thumbnail comes from data-src, not the data: placeholder.
    expect(results[1]).toMatchObject({
      url: 'https://vimeo.com/658201234',
      thumbnail: 'https://tse2.mm.bing.net/th?id=OVP.Gh4Ij5Kl6&pid=1.7',
      extra: { duration: '1:02:45' },
    });
    expect(results[2]).toEqual({
      url: 'https://www.dailymotion.com/video/x8abcd1',
      title: 'Lava meets the ocean',
      snippet: '',
    });
  });

  it('raises a CAPTCHA error on a challenge page', () => {
    expect(() => parse('<html><body><form action="/challenge/verify">captcha</form></body></html>')).toThrow(
      EngineCaptchaError,
    );
  });

  it('builds the asyncv2 request with paging and filters', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'volcano', page: 2, timeRange: 'day', safeSearch: 0 }),
    );
    expect(request.url).toBe(
      'https://www.bing.com/videos/asyncv2?q=volcano&async=content&first=36&count=35&qft=%2Bfilterui%3Avideoa' +
        'ge-lt1440&adlt=off&setlang=en',
    );
  });
});
