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

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'hello.html', query: 'Hello' },
    { file: 'cloud-service.html', query: 'cloud service' },
  ],
});

describe('yandex', () => {
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

  it('parses the recorded Hello page', () => {
    const results = parse(readFixture(engineDir, 'hello.html'));
    expect(results).toHaveLength(10);
    expect(results[0]).toEqual({
      url: 'https://en.wiktionary.org/wiki/hello',
      title: 'hello - Wiktionary',
      snippet: expect.stringMatching(/^Hello \(first attested in 1826\), from holla, hollo/) as string,
    });
    expect(results[1]).toMatchObject({ url: 'https://habr.com/ru/company/englishdom/blog/529116/' });
  });

  it('skips ads and wizards on the recorded cloud service page', () => {
    const results = parse(readFixture(engineDir, 'cloud-service.html'));
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({
      url: 'https://www.softwaretestinghelp.com/cloud-computing-service-providers/',
      title: '15 Top Cloud Computing Service Provider Companies',
    });
    expect(results.map((r) => r.title)).toContain('Cloud Computing Services | Google Cloud');
    expect(results.some((r) => /yabs\.yandex|yandex\.com\/video/.test(r.url))).toBe(false);
  });

  it('raises a CAPTCHA error on the showcaptcha page', () => {
    const page =
      '<html><body><form method="post" action="/checkcaptcha?key=abc"><img ' +
      'src="https://yandex.com/captchaimg?aHR0"></form></body></html>';
    expect(() => parse(page, 'https://yandex.com/showcaptcha?cc=1&retpath=x')).toThrow(EngineCaptchaError);
    expect(() => parse(page)).toThrow(EngineCaptchaError);
    expect(parse('<html><body><div class="misspell">Nothing found</div></body></html>')).toEqual([]);
  });

  it('pages with the 0-based p', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust lang', page: 3 })).url).toBe(
      'https://yandex.com/search/?text=rust+lang&p=2',
    );
  });
});
