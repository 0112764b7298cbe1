import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError, type HttpRequestSpec } from '../../core/engine.js';
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
  fixtures: [
    { file: 'nojs.html', query: 'google' },
    { file: 'hello-gbv1.html', query: 'Hello' },
    { file: 'desktop-featured-snippet.html', query: 'featured snippet' },
    { file: 'mobile.html', query: 'google' },
    { file: 'no-results-nojs.html', query: 'sfl234dsf14sfj323JJJJJfa345fdf45', expectResults: false },
  ],
});

describe('google', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, finalUrl?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'google' });
    const request = loaded.engine.buildRequest(ctx);
    const response = testResponse(request, readFixture(engineDir, file));
    if (finalUrl) response.url = finalUrl;
    const step = loaded.engine.parseResponse(response, ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the no-JS page as serp-parser expects', () => {
    const results = parse('nojs.html');
    expect(results).toHaveLength(10);
    expect(results[1]).toMatchObject({ title: 'Google Account', url: 'https://www.google.com/account/about/' });
    expect(results[7]!.url).toBe('https://maps.google.com/');
    expect(results[1]!.snippet).toBe('In your Google Account, you can see and manage your info, activity, ...');
  });

  it('skips links to Google itself in the gbv=1 Hello page', () => {
    const results = parse('hello-gbv1.html');
    expect(results).toHaveLength(8);
    expect(results[0]).toMatchObject({
      url: 'https://www.youtube.com/watch?v=mHONNcZbwDY',
      title: 'Lionel Richie - Hello (Official Music Video) - YouTube',
    });
    expect(results.map((r) => r.url)).toContain('https://en.wikipedia.org/wiki/Hello_(Adele_song)');
  });

  it('parses the desktop and mobile layouts', () => {
    const desktop = parse('desktop-featured-snippet.html');
    expect(desktop).toHaveLength(10);
    expect(desktop[1]).toMatchObject({
      url: 'https://backlinko.com/hub/seo/featured-snippets',
      title: 'What Are Featured Snippets? And How to Get Them',
    });
    expect(desktop[1]!.snippet).toMatch(/^Featured Snippets are short snippets of text/);
    const mobile = parse('mobile.html');
    expect(mobile.map((r) => r.title)).toEqual(['Google', 'Google', 'Google Account', 'Google Play']);
  });

  it('raises a CAPTCHA error on the reCAPTCHA page and on a /sorry/ redirect', () => {
    expect(() => parse('recaptcha.html')).toThrow(EngineCaptchaError);
    expect(() => parse('no-results-nojs.html', 'https://www.google.com/sorry/index?continue=x')).toThrow(
      EngineCaptchaError,
    );
  });

  it('builds start, tbs, safe, hl and lr', () => {
    const url = new URL(
      loaded.engine.buildRequest(
        testContext(loaded.manifest, { query: 'q', page: 3, timeRange: 'year', safeSearch: 0, language: 'de' }),
      ).url,
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      q: 'q',
      start: '20',
      tbs: 'qdr:y',
      safe: 'off',
      hl: 'de',
      lr: 'lang_de',
    });
    const strict = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'q', safeSearch: 2 })).url);
    expect(strict.searchParams.get('safe')).toBe('active');
    expect(strict.searchParams.has('start')).toBe(false);
  });

  it('builds and parses firefox-client autocomplete', () => {
    const auto = loaded.engine.autocomplete!;
    const request: HttpRequestSpec = auto.buildRequest('hel', {
      settings: { baseUrl: loaded.manifest.baseUrl, options: {} },
      manifest: loaded.manifest,
      language: 'en',
    });
    expect(request.url).toBe('https://suggestqueries.google.com/complete/search?client=firefox&q=hel&hl=en');
    expect(auto.parseResponse(testResponse(request, '["hel",["hello","help"]]', 'application/json'))).toEqual([
      'hello',
      'help',
    ]);
  });
});
