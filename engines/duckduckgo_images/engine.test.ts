import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError, type EngineStep } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { extractVqd } from '../_duckduckgo/duckduckgo.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [{ file: 'i.json', query: 'northern lights', contentType: 'application/json' }],
});

describe('duckduckgo_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const step = (body: string, query: Parameters<typeof testContext>[1] = { query: 'northern lights' }): EngineStep => {
    const ctx = testContext(loaded.manifest, query);
    return loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
  };

  it('reads the vqd token from the query page and asks i.js next', () => {
    const html = readFixture(engineDir, 'token-page.html');
    expect(extractVqd(html)).toBe('4-211870281962340187931958012633591728591');
    const first = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'northern lights', page: 2, timeRange: 'month', safeSearch: 2 }),
    );
    expect(first.url).toBe(
      'https://duckduckgo.com/?q=northern+lights&iax=images&ia=images&kl=us-en&kp=1&f=time%3AMonth%2C%2C%2C%2' +
        'C%2C&s=100',
    );
    const next = step(html, { query: 'northern lights', page: 2, timeRange: 'month', safeSearch: 2 });
    expect(next).toHaveProperty('next');
    const url = new URL((next as { next: { url: string } }).next.url);
    expect(url.pathname).toBe('/i.js');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'northern lights',
      l: 'us-en',
      f: 'time:Month,,,,,',
      p: '1',
      s: '100',
      o: 'json',
      vqd: '4-211870281962340187931958012633591728591',
    });
  });

  it('parses the i.js answer into image results', () => {
    const result = step(readFixture(engineDir, 'i.json'));
    if (!('results' in result)) throw new Error('expected results');
    expect(result.results).toHaveLength(3);
    expect(result.results[0]).toEqual({
      url: 'https://en.wikipedia.org/wiki/Aurora',
      title: 'Aurora - Wikipedia',
      snippet: '',
      imageUrl: 'https://upload.wikimedia.org/wikipedia/commons/a/aa/Polarlicht_2.jpg',
      thumbnail: 'https://tse1.mm.bing.net/th?id=OIP.Pl4rL1cHt2AbCd&pid=Api',
      sourceUrl: 'https://en.wikipedia.org/wiki/Aurora',
      width: 2000,
      height: 1333,
      extra: { source: 'Bing' },
    });
    expect(result.results[1]!.title).toBe('Where to see the Northern Lights in Iceland & Norway');
    expect(result.results[2]).toMatchObject({ title: 'blog.example.net' });
    expect(result.results[2]).not.toHaveProperty('width');
  });

  it('raises a CAPTCHA error on the bot check page', () => {
    expect(() =>
      step('<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>'),
    ).toThrow(EngineCaptchaError);
  });
});
