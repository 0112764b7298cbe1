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
    { file: 'test_search_paper-1.response.json', query: 'turing', contentType: 'application/json' },
    {
      file: 'paperqa_test_arxiv_doi_is_used_when_available-2.response.json',
      query: 'Attention is All you Need',
      contentType: 'application/json',
    },
  ],
});

describe('semantic_scholar parser', () => {
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

  it('builds the graph API search URL with offset paging', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'turing', page: 3 })).url);
    expect(url.pathname).toBe('/graph/v1/paper/search');
    expect(url.searchParams.get('query')).toBe('turing');
    expect(url.searchParams.get('offset')).toBe('20');
    expect(url.searchParams.get('fields')).toContain('abstract');
  });

  it('reads the titles-only search capture, building paper URLs from ids', () => {
    const results = parse('test_search_paper-1.response.json', 'turing');
    expect(results.length).toBeGreaterThan(50);
    expect(results[1]).toMatchObject({
      title: 'Quantum theory, the Church–Turing principle and the universal quantum computer',
      url: 'https://www.semanticscholar.org/paper/6b0f06617d9f5256a80ed62d9398acb92a55a6bd',
    });
    expect(results.map((result) => result.title)).toContain('Neural Turing Machines');
  });

  it('reads authors, venue, year and arXiv id from the full field set', () => {
    const [paper] = parse('paperqa_test_arxiv_doi_is_used_when_available-2.response.json', 'Attention is All you Need');
    expect(paper).toMatchObject({
      title: 'Attention is All you Need',
      url: 'https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776',
      publishedDate: '2017-06-12',
    });
    expect(paper!.authors).toHaveLength(8);
    expect(paper!.authors![0]).toBe('Ashish Vaswani');
    expect(paper!.extra).toMatchObject({
      venue: 'Neural Information Processing Systems',
      citations: 136941,
      arxiv: '1706.03762',
    });
  });
});
