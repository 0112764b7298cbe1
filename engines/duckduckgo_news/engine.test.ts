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
import { extractVqd } from '../_duckduckgo/duckduckgo.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixtures (no real news.js capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, { fixtures: [{ file: 'news.json', query: 'hello', contentType: 'application/json' }] });

describe('duckduckgo_news', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('fetches the vqd token first, then news.js with the same settings', () => {
    const ctx = testContext(loaded.manifest, {
      query: 'hello',
      page: 2,
      timeRange: 'day',
      safeSearch: 2,
      region: 'de-DE',
    });
    const first = loaded.engine.buildRequest(ctx);
    expect(first.url).toBe('https://duckduckgo.com/?q=hello&ia=news&iar=news&kl=de-de&df=d&kp=1&s=30');
    const step = loaded.engine.parseResponse(testResponse(first, readFixture(engineDir, 'token-page.html')), ctx);
    expect(step).toEqual({
      next: {
        method: 'GET',
        url:
          'https://duckduckgo.com/news.js?q=hello&l=de-de&df=d&p=1&s=30&o=json&noamp=1&vqd=4-211636745312487946' +
          '154358744396126612339',
        headers: { referer: 'https://duckduckgo.com/' },
      },
    });
  });

  it('parses the news.js answer with dates, images and outlets', () => {
    const ctx = testContext(loaded.manifest, { query: 'hello' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'news.json'), 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    expect(step.results).toHaveLength(2);
    expect(step.results[0]).toEqual({
      url:
        'https://www.ndtv.com/offbeat/watch-beluga-whale-welcomes-little-boy-with-a-special-hello-at-aquarium-2' +
        '438906',
      title: 'Watch: Beluga Whale Welcomes Little Boy With A Special "Hello"',
      snippet: 'A beluga whale at an aquarium greeted a little boy with a special hello & the video went viral.',
      publishedDate: '2021-05-10T20:44:00.000Z',
      thumbnail: 'https://external-content.duckduckgo.com/iu/?u=https%3A%2F%2Fc.ndtvimg.com%2Fbeluga.jpg&f=1',
      extra: { source: 'NDTV' },
    });
    expect(step.results[1]).toMatchObject({
      title: 'Clubhouse app says hello to Android',
      extra: { source: 'The Hindu' },
    });
  });

  it('reports the bot check as a CAPTCHA', () => {
    const ctx = testContext(loaded.manifest, { query: 'hello' });
    const page =
      '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>';
    expect(() => loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), page), ctx)).toThrow(
      EngineCaptchaError,
    );
    expect(extractVqd("vqd='4-123-456'")).toBe('4-123-456');
  });
});
