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
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'full_text_search_results.json', query: 'queens', contentType: JSON_TYPE },
    { file: 'list-search-hand-made.json', query: 'albert einstein', contentType: JSON_TYPE },
    { file: 'full_text_search_results_empty.json', query: 'morelike:', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('wikipedia', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, language = 'en', baseUrl?: string) => {
    const ctx = testContext(loaded.manifest, { query: 'q', language }, baseUrl);
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, file), JSON_TYPE),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded generator=search answer in rank order', () => {
    const results = parse('full_text_search_results.json');
    expect(results).toHaveLength(20);
    expect(results[0]).toMatchObject({
      title: 'IND Queens Boulevard Line',
      url: 'https://en.wikipedia.org/wiki/IND_Queens_Boulevard_Line',
      snippet: '',
    });
    expect(results[2]).toMatchObject({ title: 'Queens', snippet: 'borough of New York City, New York, United States' });
    expect(results[2]!.thumbnail).toMatch(/^https:\/\/upload\.wikimedia\.org\//);
    expect(results[3]!.url).toBe(
      'https://en.wikipedia.org/wiki/Kew_Gardens%E2%80%93Union_Turnpike_(IND_Queens_Boulevard_Line)',
    );
  });

  it('strips searchmatch spans from list=search snippets', () => {
    const results = parse('list-search-hand-made.json');
    expect(results.map((r) => r.title)).toEqual([
      'Albert Einstein',
      'Einstein family',
      'Political views of Albert Einstein',
    ]);
    expect(results[0]!.snippet).toMatch(/^Albert Einstein \(14 March 1879/);
    expect(results[0]!.snippet).toContain('"E = mc2"');
    expect(results[1]!.snippet).toBe('The Einstein family is the family of physicist Albert Einstein & his relatives');
  });

  it('puts result URLs on the language wiki that was asked', () => {
    expect(parse('list-search-hand-made.json', 'de')[0]!.url).toBe('https://de.wikipedia.org/wiki/Albert_Einstein');
    expect(parse('list-search-hand-made.json', 'de', 'https://wiki.example.org')[0]!.url).toBe(
      'https://wiki.example.org/wiki/Albert_Einstein',
    );
  });

  it('gives no results for the empty answer and a parse error for an API error', () => {
    expect(parse('full_text_search_results_empty.json')).toEqual([]);
    expect(() => parse('api_error.json')).toThrow(EngineParseError);
  });

  it('switches the subdomain only for the default baseUrl', () => {
    const url = (language: string, baseUrl?: string) =>
      new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'x', language, page: 3 }, baseUrl)).url);
    expect(url('de').origin).toBe('https://de.wikipedia.org');
    expect(url('all').origin).toBe('https://en.wikipedia.org');
    expect(url('de', 'https://wiki.example.org').origin).toBe('https://wiki.example.org');
    expect(Object.fromEntries(url('en').searchParams)).toMatchObject({
      action: 'query',
      list: 'search',
      srsearch: 'x',
      sroffset: '20',
    });
  });

  it('reads autocomplete titles from the recorded prefix search', () => {
    const auto = loaded.engine.autocomplete!;
    const request = auto.buildRequest('Aba', {
      settings: { baseUrl: loaded.manifest.baseUrl, options: {} },
      manifest: loaded.manifest,
      language: 'en',
    });
    const titles = auto.parseResponse(
      testResponse(request, readFixture(engineDir, 'prefix_search_results.json'), JSON_TYPE),
    );
    expect(titles).toHaveLength(20);
    expect(titles.slice(0, 3)).toEqual(['Narthecium', 'Amitriptyline', 'Abama Open de Canarias']);
    expect(
      auto.parseResponse(testResponse(request, '["Aba",["Abacus","Abba"],["",""],["u1","u2"]]', JSON_TYPE)),
    ).toEqual(['Abacus', 'Abba']);
  });
});
