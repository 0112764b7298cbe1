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

// Hand-made page (no real Startpage capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, { fixtures: [{ file: 'search.html', query: 'open source search' }] });

describe('startpage', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, url?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'open source search' });
    const request = loaded.engine.buildRequest(ctx);
    const step = loaded.engine.parseResponse({ ...testResponse(request, body), url: url ?? request.url }, ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses result blocks and skips relative ad links', () => {
    const results = parse(readFixture(engineDir, 'search.html'));
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      url: 'https://www.postgresql.org/docs/current/textsearch.html',
      title: 'PostgreSQL: Documentation: Full Text Search',
      snippet:
        'Full Text Searching (or just text search) provides the capability to identify natural-language ' +
        'documents that satisfy a query & optionally sort them.',
    });
    expect(results[1]).toMatchObject({
      url: 'https://typesense.org/',
      title: 'Typesense | Open Source Alternative to Algolia',
    });
  });

  it('raises a CAPTCHA error after a redirect to /sp/captcha', () => {
    expect(() => parse('<html><body><form></form></body></html>', 'https://www.startpage.com/sp/captcha?x=1')).toThrow(
      EngineCaptchaError,
    );
  });

  it('builds the request', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2, timeRange: 'year' }),
    );
    expect(request.url).toBe('https://www.startpage.com/sp/search?query=rust&cat=web&page=2&with_date=y');
  });
});
