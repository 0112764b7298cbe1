import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineResult } from '../../core/engine.js';
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
      file: 'paperqa_test_title_searchpaper_attributes0-4.response.json',
      query: 'Effect of native oxide layers on copper thin-film tensile properties',
      contentType: 'application/json',
    },
  ],
});

describe('openalex parser', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (file: string, query: string, status = 200): EngineResult[] => {
    const ctx = testContext(loaded.manifest, { query });
    const response = testResponse(
      loaded.engine.buildRequest(ctx),
      readFixture(engineDir, file),
      'application/json',
      status,
    );
    return (loaded.engine.parseResponse(response, ctx) as { results: EngineResult[] }).results;
  };

  it('builds a works search with page and per-page', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'copper oxide', page: 2 })).url,
    );
    expect(url.pathname).toBe('/works');
    expect(url.searchParams.get('search')).toBe('copper oxide');
    expect(url.searchParams.get('page')).toBe('2');
  });

  it('reads the work and rebuilds its abstract from the inverted index', () => {
    const [work] = parse('paperqa_test_title_searchpaper_attributes0-4.response.json', 'copper');
    expect(work).toMatchObject({
      title:
        'Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study',
      url: 'https://doi.org/10.1063/1.4938384',
      doi: '10.1063/1.4938384',
      publishedDate: '2015-12-21',
    });
    expect(
      work!.snippet.startsWith(
        'Metal-oxide layers are likely to be present on metallic nano-structures due to either environmental',
      ),
    ).toBe(true);
    expect(work!.authors![0]).toBe('Michael Skarlinski');
    expect(work!.extra).toMatchObject({ venue: 'Journal of Applied Physics', citations: 9 });
  });
});
