import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, type EngineResult, type EngineStep, type HttpRequestSpec } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = new URL('.', import.meta.url).pathname;
const XML = 'text/xml; charset=utf-8';

// The conformance fixture is the second step: the summary request is what gives results.
runEngineConformance(engineDir, { fixtures: [] });

describe('pubmed two-step search', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const context = (query = 'biopython', page = 1) => testContext(loaded.manifest, { query, page });

  it('starts with esearch on the configured baseUrl', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'biopython', page: 3 }, 'http://127.0.0.1:9/eutils'),
    );
    const url = new URL(request.url);
    expect(request.url.startsWith('http://127.0.0.1:9/eutils/esearch.fcgi?')).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      db: 'pubmed',
      term: 'biopython',
      retmax: '10',
      retstart: '20',
      retmode: 'xml',
    });
  });

  it('turns the esearch ids into an esummary request carrying them in meta', () => {
    const ctx = context();
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'esearch1.xml'), XML),
      ctx,
    );
    expect(step).toHaveProperty('next');
    const next = (step as { next: HttpRequestSpec }).next;
    const url = new URL(next.url);
    expect(url.pathname).toBe('/entrez/eutils/esummary.fcgi');
    expect(url.searchParams.get('db')).toBe('pubmed');
    expect(url.searchParams.get('id')!.split(',')).toHaveLength(20);
    expect(url.searchParams.get('id')!.startsWith('41282813,41148224,')).toBe(true);
    expect(next.meta).toMatchObject({ step: 'esummary' });
  });

  it('parses esummary into papers once the response carries the summary request', () => {
    const ctx = context();
    const summaryRequest = loaded.engine.buildRequest(ctx);
    summaryRequest.meta = { step: 'esummary', ids: ['11850928', '11482001'] };
    const step: EngineStep = loaded.engine.parseResponse(
      testResponse(summaryRequest, readFixture(engineDir, 'esummary1.xml'), XML),
      ctx,
    );
    const results = (step as { results: EngineResult[] }).results;
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      url: 'https://pubmed.ncbi.nlm.nih.gov/11850928/',
      title: 'Zirconium granuloma following treatment of rhus dermatitis.',
      authors: ['LoPresti PJ', 'Hambrick GW Jr'],
      publishedDate: '1965-08-01',
    });
    expect(results[0]!.snippet).toBe('LoPresti PJ, Hambrick GW Jr — Archives of dermatology. 1965 Aug;92(2):188-91');
    expect(results[1]).toMatchObject({
      title: 'Adverse and beneficial effects of plant extracts on skin and skin disorders.',
      publishedDate: '2001-08-03',
    });
    expect(results[1]!.extra).toMatchObject({ pubTypes: ['Journal Article', 'Review'] });
  });

  it('runs both steps end to end, with the second request handed back as response.request', () => {
    const ctx = context();
    const first = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'esearch1.xml'), XML),
      ctx,
    );
    const next = (first as { next: HttpRequestSpec }).next;
    const second = loaded.engine.parseResponse(testResponse(next, readFixture(engineDir, 'esummary1.xml'), XML), ctx);
    for (const result of (second as { results: EngineResult[] }).results) {
      expect(result.url).toMatch(/^https:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/\d+\/$/);
      expect(result.title).not.toMatch(/[<>]|&[a-z]+;/);
    }
  });

  it('ends with no results when esearch finds nothing', () => {
    const ctx = context('zzzz');
    const empty =
      '<?xml ' +
      'version="1.0"?><eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/></eSear' +
      'chResult>';
    expect(loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), empty, XML), ctx)).toEqual({
      results: [],
    });
  });

  it('reports an E-utilities error element as a parse error', () => {
    const ctx = context();
    const failed =
      '<?xml version="1.0"?><eSearchResult><ERROR>Invalid db name specified: pubmedx</ERROR></eSearchResult>';
    expect(() => loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), failed, XML), ctx)).toThrow(
      EngineParseError,
    );
  });
});
