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

// Hand-made fixture from the documented wbsearchentities format; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'douglas adams', contentType: 'application/json' }],
});

describe('wikidata', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'douglas adams' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('links each entity to its item page with the description as snippet', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://www.wikidata.org/wiki/Q42',
      title: 'Douglas Adams',
      snippet: 'English writer and humorist (1952–2001)',
      extra: {
        id: 'Q42',
        conceptUri: 'http://www.wikidata.org/entity/Q42',
        matchType: 'label',
        matchText: 'Douglas Adams',
      },
    });
    expect(results[1]).toMatchObject({
      url: 'https://www.wikidata.org/wiki/Q28421831',
      snippet: '',
      extra: { matchType: 'alias', aliases: ['Doug Adams'] },
    });
    expect(results[2]).toMatchObject({
      title: "Douglas Adams & the Hitchhiker's Guide",
      snippet: 'documentary film & radio retrospective',
    });
  });

  it('searches in the query language and pages with continue', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Berlin', page: 2, language: 'de' })).url,
    );
    expect(url.origin + url.pathname).toBe('https://www.wikidata.org/w/api.php');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      action: 'wbsearchentities',
      search: 'Berlin',
      language: 'de',
      uselang: 'de',
      continue: '10',
      format: 'json',
    });
    const all = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Berlin', language: 'all' })).url,
    );
    expect(all.searchParams.get('language')).toBe('en');
    expect(all.searchParams.has('continue')).toBe(false);
  });

  it('reports API errors', () => {
    expect(() => parse('{"error":{"code":"param-missing","info":"The parameter \\"search\\" is required."}}')).toThrow(
      EngineParseError,
    );
    expect(parse('{"searchinfo":{"search":"zzzz"},"search":[],"success":1}')).toEqual([]);
  });
});
