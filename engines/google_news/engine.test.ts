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
import { parseAge, unwrapGoogleLink } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
/** The Date header recorded with the capture. */
const RECORDED_AT = 'Mon, 10 May 2021 22:42:07 GMT';

runEngineConformance(engineDir, { fixtures: [{ file: 'hello.html', query: 'Hello' }] });

describe('google_news', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, headers: Record<string, string> = {}, url?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'Hello' });
    const request = loaded.engine.buildRequest(ctx);
    const response = testResponse(request, body);
    const step = loaded.engine.parseResponse(
      { ...response, headers: { ...response.headers, ...headers }, url: url ?? request.url },
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded Hello news page with outlets and dates', () => {
    const results = parse(readFixture(engineDir, 'hello.html'), { date: RECORDED_AT });
    expect(results).toHaveLength(10);
    expect(results[0]).toEqual({
      url:
        'https://www.ndtv.com/offbeat/watch-beluga-whale-welcomes-little-boy-with-a-special-hello-at-aquarium-2' +
        '438906',
      title: 'Watch: Beluga Whale Welcomes Little Boy With A Special "Hello" At Aquarium',
      snippet: expect.stringMatching(
        /^Watch: Beluga Whale Welcomes Little Boy With A Special "Hello" At Aquarium\. Beluga whales/,
      ) as string,
      publishedDate: '2021-05-10T12:42:07.000Z',
      extra: { source: 'NDTV.com' },
    });
    expect(results[2]).toMatchObject({
      url:
        'https://gadgets.ndtv.com/how-to/features/airtel-caller-hello-tune-step-by-step-guide-tutorial-prepaid-' +
        'postpaid-wynk-music-app-2437030',
      title: 'Caller Tune: How to Set Caller Tune on Airtel',
      publishedDate: '2021-05-09T22:42:07.000Z',
      extra: { source: 'Gadgets 360' },
    });
    expect(results[2]!.snippet).toMatch(/^Airtel refers to its caller tune service/);
  });

  it('leaves relative ages undated without a Date header', () => {
    expect(parse(readFixture(engineDir, 'hello.html'))[0]!.publishedDate).toBeUndefined();
    expect(parseAge('May 3, 2021', undefined)).toBe('2021-05-03T00:00:00.000Z');
    expect(parseAge('3 weeks ago', new Date('2021-05-22T00:00:00Z'))).toBe('2021-05-01T00:00:00.000Z');
    expect(parseAge('yesterday', new Date())).toBeUndefined();
  });

  it('unwraps /url?q= links and reports the /sorry/ page as a CAPTCHA', () => {
    expect(unwrapGoogleLink('/url?q=https://example.org/a%3Fb&sa=U')).toBe('https://example.org/a?b');
    expect(() =>
      parse(
        '<html><body>Our systems have detected unusual traffic</body></html>',
        {},
        'https://www.google.com/sorry/index?continue=x',
      ),
    ).toThrow(EngineCaptchaError);
  });

  it('builds the news-tab request', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2, timeRange: 'week', safeSearch: 2, language: 'de' }),
    );
    expect(request.url).toBe(
      'https://www.google.com/search?q=rust&tbm=nws&start=10&hl=de&tbs=qdr%3Aw&safe=high&gbv=1&ie=UTF-8',
    );
  });
});
