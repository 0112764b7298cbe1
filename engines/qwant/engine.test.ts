import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { qwantLocale } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture (no real Qwant capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search-web.json', query: 'open source search', contentType: 'application/json' }],
});

describe('qwant', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'open source search' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('keeps only web groups of the mainline, in order', () => {
    expect(parse(readFixture(engineDir, 'search-web.json'))).toEqual([
      {
        url: 'https://docs.searxng.org/',
        title: 'SearXNG & friends: open source metasearch',
        snippet:
          'SearXNG is a free internet metasearch engine which aggregates results from more than 70 search services.',
      },
      {
        url: 'https://lucene.apache.org/',
        title: 'Apache Lucene',
        snippet: expect.stringMatching(/^Apache Lucene is a high-performance/) as string,
      },
      {
        url: 'https://www.meilisearch.com/',
        title: 'Meilisearch — open source search engine',
        snippet: expect.any(String) as string,
      },
    ]);
  });

  it('maps error answers to typed errors', () => {
    expect(() =>
      parse(
        JSON.stringify({
          status: 'error',
          data: { error_code: 27, error_data: { captchaUrl: 'https://www.qwant.com/captcha' } },
        }),
      ),
    ).toThrow(EngineCaptchaError);
    expect(() => parse(JSON.stringify({ status: 'error', data: { error_code: 24 } }))).toThrow(EngineRateLimitedError);
  });

  it('builds the request with locale, offset and safe search', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 3, language: 'de', safeSearch: 2 }),
    );
    expect(request.url).toBe(
      'https://api.qwant.com/v3/search/web?q=rust&count=10&offset=20&locale=de_DE&safesearch=2&device=desktop',
    );
    expect(qwantLocale({ language: 'en', region: 'en-GB' })).toBe('en_GB');
  });
});
