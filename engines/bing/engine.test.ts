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
import { timeFilter, unwrapBingLink } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'hello.html', query: 'Hello' },
    { file: 'microsoft-wikipedia.html', query: 'Microsoft wikipedia' },
    { file: 'no-results.html', query: 'sfl234dsf14sfj323JJJJJfa345fdf45', expectResults: false },
  ],
});

describe('bing', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'Hello' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded Hello page', () => {
    const results = parse(readFixture(engineDir, 'hello.html'));
    expect(results).toHaveLength(9);
    expect(results[0]).toMatchObject({
      url: 'https://www.hellomagazine.com/',
      title: 'HELLO! - Daily royal, celebrity, fashion, beauty ...',
    });
    expect(results[0]!.snippet).toContain('brings you the latest celebrity & royal news');
    expect(results.map((r) => r.url)).toContain('https://www.merriam-webster.com/dictionary/hello');
  });

  it('unwraps ck/a links and drops the WEB badge', () => {
    const results = parse(readFixture(engineDir, 'microsoft-wikipedia.html'));
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({
      url: 'https://en.wikipedia.org/wiki/Microsoft',
      title: 'Microsoft - Wikipedia',
    });
    expect(results.map((r) => r.url)).toContain('https://www.britannica.com/topic/Microsoft-Corporation');
    expect(results.every((r) => !r.url.includes('bing.com/ck/'))).toBe(true);
    expect(results[2]!.snippet.startsWith('Microsoft Windows is a product line')).toBe(true);
    expect(unwrapBingLink('https://www.bing.com/ck/a?!&&p=x&u=a1aHR0cHM6Ly9leGFtcGxlLm9yZy8&ntb=1')).toBe(
      'https://example.org/',
    );
  });

  it('gives no results for the no-results page', () => {
    expect(parse(readFixture(engineDir, 'no-results.html'))).toEqual([]);
  });

  it('raises a CAPTCHA error on a challenge page', () => {
    expect(() =>
      parse('<html><body><div id="b_captcha">Please solve the captcha to continue</div></body></html>'),
    ).toThrow(EngineCaptchaError);
  });

  it('builds paging, time range, safe search and language parameters', () => {
    const url = new URL(
      loaded.engine.buildRequest(
        testContext(loaded.manifest, {
          query: 'a b',
          page: 3,
          timeRange: 'week',
          safeSearch: 2,
          language: 'fr',
          region: 'fr-FR',
        }),
      ).url,
    );
    expect(url.origin + url.pathname).toBe('https://www.bing.com/search');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'a b',
      first: '21',
      filters: 'ex1:"ez2"',
      adlt: 'strict',
      setlang: 'fr',
      cc: 'FR',
    });
    expect(timeFilter('year', Date.UTC(2024, 0, 1))).toBe('ex1:"ez5_19358_19723"');
  });
});
