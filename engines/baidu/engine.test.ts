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

runEngineConformance(engineDir, { fixtures: [{ file: 'hello.html', query: 'Hello' }] });

describe('baidu', () => {
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
    // Aladdin blocks: the real target from mu.
    expect(results[1]).toMatchObject({
      url: 'https://baike.baidu.com/item/hello/38467',
      title: 'hello(词语释义) - 百度百科',
    });
    // Organic results: Baidu's redirect link and the abstract.
    expect(results[7]).toEqual({
      url: 'http://www.baidu.com/link?url=gEuAslrSkKEnugLTJNutjNmHsec20bQbBdV978XPPPG',
      title: 'hello network',
      snippet: 'Connect with people who share your interests. Discover communities you love. Join fun conversations.',
    });
    // A placeholder mu falls back to the (relative) title link.
    expect(results[6]!.url).toMatch(/^https:\/\/www\.baidu\.com\/sf\/vsearch\?/);
    expect(results.some((r) => r.url.includes('recommend_list'))).toBe(false);
  });

  it('raises a CAPTCHA error on the security check', () => {
    expect(() => parse('<html><head><title>百度安全验证</title></head><body></body></html>')).toThrow(
      EngineCaptchaError,
    );
    expect(() => parse('<html></html>', 'https://wappass.baidu.com/static/captcha/tuxing.html?ak=x')).toThrow(
      EngineCaptchaError,
    );
    expect(parse('<html><body><div class="nors">没有找到</div></body></html>')).toEqual([]);
  });

  it('pages with pn offsets', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: '你好', page: 3 })).url).toBe(
      'https://www.baidu.com/s?wd=%E4%BD%A0%E5%A5%BD&pn=20&rn=10&ie=utf-8',
    );
  });
});
