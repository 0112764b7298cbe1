import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError, type EngineResult } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = new URL('.', import.meta.url).pathname;

runEngineConformance(engineDir, {
  fixtures: [
    {
      file: 'sep_googlescholar-Hello-synopsis-1.response.html',
      query: 'Hello',
      contentType: 'text/html; charset=utf-8',
    },
    {
      file: 'goscholar_parse_test_case1.html',
      query: '"Learning deep architectures for AI"',
      contentType: 'text/html; charset=utf-8',
    },
  ],
});

describe('google_scholar parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'text/html; charset=utf-8',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('builds /scholar with start offset and interface language', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'hello', page: 2, language: 'de' })).url,
    );
    expect(url.pathname).toBe('/scholar');
    expect(url.searchParams.get('start')).toBe('10');
    expect(url.searchParams.get('hl')).toBe('de');
  });

  it('reads the 2021 capture with byline, citations and PDF link', () => {
    const results = parse('sep_googlescholar-Hello-synopsis-1.response.html', 'Hello');
    // The tenth entry is a link-less [CITATION]; it has nothing to open, so it is skipped.
    expect(results).toHaveLength(9);
    expect(results[2]!.url.startsWith('https://www.google.com/books?')).toBe(true);
    expect(results[2]!.title).not.toMatch(/^\[/);
    expect(results[0]).toMatchObject({
      url: 'https://ascelibrary.org/doi/abs/10.1061/(ASCE)1090-0241(2003)129:11(1054)',
      title: 'Goodbye, hazen; hello, kozeny-carman',
      publishedDate: '2003',
      authors: ['WD Carrier III'],
    });
    expect(
      results[0]!.snippet.startsWith('The century-old Hazen formula for predicting the permeability of sand'),
    ).toBe(true);
    expect(results[0]!.extra).toMatchObject({
      citedBy: 581,
      pdf: 'https://www.academia.edu/download/54170257/Goodbye_Hazen__Hello_Kozeny-Carman.pdf',
    });
    expect(results[1]!.url).toBe('https://www.sciencedirect.com/science/article/pii/0304387885900367');
  });

  it('reads the 2016 layout too', () => {
    const results = parse('goscholar_parse_test_case1.html', '"Learning deep architectures for AI"');
    expect(results[0]).toMatchObject({
      url: 'http://dl.acm.org/citation.cfm?id=1658424',
      title: 'Learning deep architectures for AI',
      authors: ['Y Bengio'],
    });
    expect(results[0]!.extra).toMatchObject({ citedBy: 2441 });
  });

  it('throws a CAPTCHA error on the real Google block page', () => {
    expect(() => parse('google-recaptcha-block.html', 'hello')).toThrow(EngineCaptchaError);
  });
});
