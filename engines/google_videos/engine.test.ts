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

runEngineConformance(engineDir, { fixtures: [{ file: 'vid-basic.html', query: 'sourdough bread' }] });

describe('google_videos', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, url?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'sourdough bread' });
    const response = testResponse(loaded.engine.buildRequest(ctx), body);
    const step = loaded.engine.parseResponse(url ? { ...response, url } : response, ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses video results with thumbnail and duration', () => {
    const results = parse(readFixture(engineDir, 'vid-basic.html'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.youtube.com/watch?v=k5l6m7n8o9p',
      title: 'Easy Sourdough Bread for Beginners',
      snippet: 'Mar 14, 2021 · Uploaded by Home Baker & Co',
      thumbnail: 'https://encrypted-tbn1.gstatic.com/images?q=tbn:ANd9GcQbread1',
      extra: { duration: '12:48' },
    });
    // A data: placeholder is no thumbnail; the badge still gives the duration.
    expect(results[1]).toMatchObject({ url: 'https://vimeo.com/512345678', extra: { duration: '1:05:09' } });
    expect(results[1]).not.toHaveProperty('thumbnail');
    expect(results[2]).toEqual({
      url: 'https://www.example-cooking.com/videos/no-knead-sourdough',
      title: 'No-knead sourdough in 5 steps',
      snippet: '',
    });
  });

  it('raises a CAPTCHA error on a /sorry/ redirect', () => {
    expect(() => parse('<html><body>blocked</body></html>', 'https://www.google.com/sorry/index?continue=x')).toThrow(
      EngineCaptchaError,
    );
  });

  it('builds the video tab request', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'sourdough', page: 3, timeRange: 'day', safeSearch: 2, language: 'all' }),
    );
    expect(request.url).toBe(
      'https://www.google.com/search?q=sourdough&tbm=vid&start=20&tbs=qdr%3Ad&safe=active&ie=utf8&oe=utf8',
    );
  });
});
