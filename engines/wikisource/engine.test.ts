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

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture from the MediaWiki search format; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'declaration of independence', contentType: 'application/json' }],
});

describe('wikisource', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, language = 'en', baseUrl?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'declaration of independence', language }, baseUrl);
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses search hits into page links without highlighting markup', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://en.wikisource.org/wiki/United_States_Declaration_of_Independence',
      title: 'United States Declaration of Independence',
      extra: { lastEdited: '2024-07-04T12:34:56.000Z', wordCount: 1320 },
    });
    expect(results[0]!.snippet).not.toContain('searchmatch');
    expect(results[2]!.url).toBe('https://en.wikisource.org/wiki/Declaration_of_Arbroath');
  });

  it('picks the language subdomain for the default wiki only', () => {
    expect(
      parse(readFixture(engineDir, 'search.json'), 'de')[0]!.url.startsWith('https://de.wikisource.org/wiki/'),
    ).toBe(true);
    expect(
      parse(readFixture(engineDir, 'search.json'), 'all')[0]!.url.startsWith(loaded.manifest.baseUrl + '/wiki/'),
    ).toBe(true);
    expect(
      parse(readFixture(engineDir, 'search.json'), 'de', 'https://wiki.example.org')[0]!.url.startsWith(
        'https://wiki.example.org/wiki/',
      ),
    ).toBe(true);
  });

  it('pages with sroffset and reports API errors', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'x y', page: 3, language: 'fr' })).url,
    );
    expect(url.origin + url.pathname).toBe('https://fr.wikisource.org/w/api.php');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      action: 'query',
      list: 'search',
      srsearch: 'x y',
      sroffset: '20',
      srlimit: '10',
      srnamespace: '0',
    });
    expect(() =>
      parse(
        JSON.stringify({ error: { code: 'srsearch-param-missing', info: 'The "srsearch" parameter must be set.' } }),
      ),
    ).toThrow(EngineParseError);
  });
});
