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
import { duckduckgoRegion } from '../_duckduckgo/duckduckgo.js';
import { pageOffset, unwrapRedirect } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, { fixtures: [{ file: 'hello.html', query: 'Hello' }] });

describe('duckduckgo', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, query = 'Hello') => {
    const ctx = testContext(loaded.manifest, { query });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded Hello page', () => {
    const results = parse(readFixture(engineDir, 'hello.html'));
    expect(results).toHaveLength(28);
    expect(results[0]).toMatchObject({
      url: 'https://www.merriam-webster.com/dictionary/hello',
      title: 'Hello | Definition of Hello by Merriam-Webster',
    });
    expect(results[0]!.snippet.length).toBeGreaterThan(20);
    expect(results[1]).toMatchObject({
      url: 'https://www.hellomagazine.com/',
      title: 'HELLO! - Daily royal, celebrity, fashion, beauty ...',
    });
  });

  it('decodes uddg redirect links and skips ads', () => {
    const html = `<div class="results">
      <div class="result results_links"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&amp;rut=x">Example &amp; <b>Co</b></a></h2>
      <a class="result__snippet">An <b>example</b> page</a></div>
      <div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad=1">Ad</a></div></div>`;
    expect(parse(html)).toEqual([
      { url: 'https://example.org/a?b=1', title: 'Example & Co', snippet: 'An example page' },
    ]);
    expect(unwrapRedirect('/l/?uddg=http%3A%2F%2Fx.test%2F')).toBe('http://x.test/');
  });

  it('raises a CAPTCHA error on the anomaly page', () => {
    const anomaly = `<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
      <form action="//duckduckgo.com/anomaly.js?sv=html" method="POST"></form></body></html>`;
    expect(() => parse(anomaly)).toThrow(EngineCaptchaError);
  });

  it('returns no results for a page without any', () => {
    expect(parse('<html><body><div class="no-results">No results.</div></body></html>')).toEqual([]);
  });

  it('posts the form with region, time range, safe search and Next-page fields', () => {
    const page1 = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust lang', region: 'de-DE', timeRange: 'month', safeSearch: 2 }),
    );
    expect(page1.method).toBe('POST');
    expect(page1.url).toBe('https://html.duckduckgo.com/html/');
    const fields = new URLSearchParams(page1.body);
    expect(Object.fromEntries(fields)).toMatchObject({ q: 'rust lang', kl: 'de-de', df: 'm', kp: '1' });
    expect(fields.has('s')).toBe(false);
    const page3 = new URLSearchParams(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust lang', page: 3, safeSearch: 0 })).body,
    );
    expect(Object.fromEntries(page3)).toMatchObject({
      s: '70',
      dc: '71',
      o: 'json',
      api: 'd.js',
      vqd: '',
      kp: '-2',
      kl: 'us-en',
    });
    expect(pageOffset(2)).toBe(20);
    expect(duckduckgoRegion('all')).toBe('wt-wt');
  });

  it('builds and parses autocomplete', () => {
    const auto = loaded.engine.autocomplete!;
    const request = auto.buildRequest('hel', {
      settings: { baseUrl: loaded.manifest.baseUrl, options: {} },
      manifest: loaded.manifest,
      language: 'en',
    });
    expect(request.url).toBe('https://duckduckgo.com/ac/?q=hel&type=list&kl=us-en');
    const body = JSON.stringify(['hel', ['hello', 'helsinki']]);
    expect(auto.parseResponse(testResponse(request, body, 'application/json'))).toEqual(['hello', 'helsinki']);
  });
});
