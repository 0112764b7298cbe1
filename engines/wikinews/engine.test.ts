import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { articleUrl } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture from the MediaWiki search format; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'solar eclipse', contentType: 'application/json' }],
});

describe('wikinews', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, baseUrl?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'solar eclipse' }, baseUrl);
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses search hits into dated articles without highlighting markup', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://en.wikinews.org/wiki/Solar_eclipse_visible_across_North_America',
      title: 'Solar eclipse visible across North America',
      snippet: "A total solar eclipse crossed Mexico, the United States & Canada on Monday's afternoon…",
      publishedDate: '2024-04-09T18:22:41.000Z',
    });
    expect(results[2]!.url).toBe('https://en.wikinews.org/wiki/Q%26A:_AC/DC_road_crew_on_eclipse_day');
  });

  it('builds article URLs on the configured baseUrl and reports API errors', () => {
    expect(parse(readFixture(engineDir, 'search.json'), 'https://de.wikinews.org')[1]!.url).toBe(
      'https://de.wikinews.org/wiki/Scientists_observe_eclipse_from_high-altitude_aircraft',
    );
    expect(articleUrl('http://127.0.0.1:9/wn/', 'A b')).toBe('http://127.0.0.1:9/wn/wiki/A_b');
    expect(() => parse(JSON.stringify({ error: { code: 'srsearch-text-disabled', info: 'no' } }))).toThrow(
      EngineParseError,
    );
  });

  it('pages with sroffset', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'eclipse', page: 2 })).url);
    expect(url.origin + url.pathname).toBe('https://en.wikinews.org/w/api.php');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      list: 'search',
      srsearch: 'eclipse',
      sroffset: '10',
      srlimit: '10',
      srsort: 'create_timestamp_desc',
    });
  });
});
