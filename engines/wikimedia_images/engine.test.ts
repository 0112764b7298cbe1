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
  fixtures: [{ file: 'allimages_continuation_pretty1.json', query: 'volcano', contentType: 'application/json' }],
});

describe('wikimedia_images parser', () => {
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

  it('searches the File namespace and asks for thumbnails', () => {
    const url = new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'volcano', page: 2 })).url);
    expect(url.pathname).toBe('/w/api.php');
    expect(url.searchParams.get('generator')).toBe('search');
    expect(url.searchParams.get('gsrnamespace')).toBe('6');
    expect(url.searchParams.get('gsroffset')).toBe('20');
    expect(url.searchParams.get('prop')).toBe('imageinfo');
  });

  it('reads image URL, size and description page from the captured imageinfo', () => {
    const results = parse('allimages_continuation_pretty1.json', 'volcano');
    expect(results).toHaveLength(9);
    const volcano = results.find((result) => result.title === 'Minchinmavida Volcano');
    expect(volcano).toMatchObject({
      url: 'https://commons.wikimedia.org/wiki/File:Minchinmavida_Volcano.jpg',
      sourceUrl: 'https://commons.wikimedia.org/wiki/File:Minchinmavida_Volcano.jpg',
      imageUrl: 'https://upload.wikimedia.org/wikipedia/commons/f/fb/Minchinmavida_Volcano.jpg',
      thumbnail: 'https://upload.wikimedia.org/wikipedia/commons/f/fb/Minchinmavida_Volcano.jpg',
      width: 1440,
      height: 1440,
      snippet: 'Vulcano Minchinmavida Cile',
    });
    expect(volcano!.extra).toMatchObject({ license: 'Public domain' });
  });
});
