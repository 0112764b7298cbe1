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
import { decodeYahooRedirect } from './yahoo-serp.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'hello.html', query: 'Hello' },
    { file: 'this-is-example-bob.html', query: 'this is example Bob' },
  ],
});

describe('yahoo', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, url?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'Hello' });
    const request = loaded.engine.buildRequest(ctx);
    const step = loaded.engine.parseResponse({ ...testResponse(request, body), url: url ?? request.url }, ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded Hello page and decodes the click-tracker links', () => {
    const results = parse(readFixture(engineDir, 'hello.html'));
    expect(results).toHaveLength(9);
    expect(results[0]).toMatchObject({
      url: 'https://www.merriam-webster.com/dictionary/hello',
      title: 'Hello | Definition of Hello by Merriam-Webster',
    });
    expect(results[0]!.snippet).toMatch(/^Definition of hello : an expression or gesture of greeting/);
    expect(results[0]!.snippet).toContain('Synonyms & Antonyms');
    expect(results[1]).toMatchObject({ title: 'HELLO! - Daily royal, celebrity, fashion, beauty & lifestyle news' });
    expect(results.map((r) => r.title)).toContain('Hello - Wikipedia');
    expect(results.every((r) => !r.url.includes('yahoo.com'))).toBe(true);
  });

  it('parses the second recorded page', () => {
    const results = parse(readFixture(engineDir, 'this-is-example-bob.html'));
    expect(results).toHaveLength(8);
    expect(results[2]).toMatchObject({ title: 'BOB | Copy & Paste - Pastebin.com' });
    expect(results[2]!.url).toMatch(/^https:\/\/pastebin\.com\//);
  });

  it('decodes /RU=…/ links and drops the display URL span from titles', () => {
    expect(
      decodeYahooRedirect(
        'https://r.search.yahoo.com/_ylt=x/RV=2/RE=1/RO=10/RU=https%3a%2f%2fexample.org%2fa%3fb%3d1/RK=2/RS=y-',
      ),
    ).toBe('https://example.org/a?b=1');
    expect(decodeYahooRedirect('https://example.net/direct')).toBe('https://example.net/direct');
    const html = `<div class="dd algo algo-sr"><div class="compTitle"><h3 class="title"><a href="https://r.search.yahoo.com/RU=https%3a%2f%2fexample.org%2f/RK=2/"><span>example.org › docs</span>Example &amp; Docs</a></h3></div>
      <div class="compText"><p>An <b>example</b></p></div></div>`;
    expect(parse(html)).toEqual([{ url: 'https://example.org/', title: 'Example & Docs', snippet: 'An example' }]);
  });

  it('raises a CAPTCHA error on a consent wall without results', () => {
    expect(() =>
      parse(
        '<html><body><form>Before you continue</form></body></html>',
        'https://consent.yahoo.com/v2/collectConsent',
      ),
    ).toThrow(EngineCaptchaError);
    expect(parse('<html><body><p>We did not find results</p></body></html>')).toEqual([]);
  });

  it('builds the request with offset, language, age and safe-search parameters', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust lang', page: 3, language: 'de', timeRange: 'week', safeSearch: 2 }),
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'https://search.yahoo.com/search?p=rust+lang&ei=UTF-8&b=15&vl=lang_de&btf=w&vm=r',
    });
    const plain = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'x', language: 'all', timeRange: 'year' })).url,
    );
    expect(plain.searchParams.has('vl')).toBe(false);
    expect(plain.searchParams.has('btf')).toBe(false);
  });
});
