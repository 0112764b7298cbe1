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
  fixtures: [{ file: 'geocoder_osm.json', query: 'Ottawa, Ontario', contentType: 'application/json' }],
});

describe('openstreetmap parser', () => {
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

  it('asks Nominatim for jsonv2 with address details in the query language', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Ottawa', language: 'fr' })).url,
    );
    expect(url.pathname).toBe('/search');
    expect(url.searchParams.get('format')).toBe('jsonv2');
    expect(url.searchParams.get('accept-language')).toBe('fr');
  });

  it('reads the captured place with its coordinates and category', () => {
    const [place] = parse('geocoder_osm.json', 'Ottawa, Ontario');
    expect(place).toMatchObject({
      url: 'https://www.openstreetmap.org/relation/4136816',
      title: 'Ottawa',
      snippet: 'Ottawa, Ontario, Canada — place / city',
    });
    expect(place!.extra).toMatchObject({ latitude: 45.421106, longitude: -75.690308, category: 'place', type: 'city' });
    expect(place!.extra!.boundingBox).toEqual([44.9617738, 45.5376502, -76.3555857, -75.2465783]);
  });
});
