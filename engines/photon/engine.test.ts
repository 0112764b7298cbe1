import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
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
    { file: 'api-berlin.json', query: 'berlin', contentType: JSON_TYPE },
    { file: 'api-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('photon', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'berlin' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('links features to their OpenStreetMap objects (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'api-berlin.json'));
    expect(results).toHaveLength(4);
    expect(results[0]).toEqual({
      url: 'https://www.openstreetmap.org/relation/62422',
      title: 'Berlin',
      snippet: 'Germany',
      extra: {
        latitude: 52.5170365,
        longitude: 13.3888599,
        boundingBox: [13.088345, 52.6755087, 13.7611609, 52.3382448],
        osmKey: 'place',
        osmValue: 'city',
        type: 'city',
        countryCode: 'DE',
      },
    });
    expect(results[1]).toMatchObject({
      url: 'https://www.openstreetmap.org/node/3856100103',
      title: 'Berlin Hauptbahnhof',
      snippet: 'Europaplatz 1, Mitte, 10557 Berlin, Germany',
      extra: { osmKey: 'railway', osmValue: 'station' },
    });
    // No name: the street stands in as the title; entities are decoded.
    expect(results[2]).toMatchObject({
      url: 'https://www.openstreetmap.org/way/19467321',
      title: 'Berlin Road & Main',
      snippet: 'Berlin, Green Lake County, Wisconsin, United States',
    });
    // No OSM object: a map link at the coordinates.
    expect(results[3]!.url).toBe('https://www.openstreetmap.org/?mlat=51.16&mlon=10.45#map=16/51.16/10.45');
  });

  it('returns nothing for an empty collection and types errors', () => {
    expect(parse(readFixture(engineDir, 'api-empty.json'))).toEqual([]);
    expect(() => parse('{"message":"missing search term \'q\'"}', 400)).toThrow(EngineParseError);
    expect(() => parse('', 429)).toThrow(EngineRateLimitedError);
  });

  it('sends lang only for the documented languages', () => {
    const build = (language: string) =>
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Unter den Linden', language })).url;
    expect(build('de')).toBe('https://photon.komoot.io/api/?q=Unter+den+Linden&limit=10&lang=de');
    expect(build('ja')).toBe('https://photon.komoot.io/api/?q=Unter+den+Linden&limit=10');
    expect(build('all')).toBe('https://photon.komoot.io/api/?q=Unter+den+Linden&limit=10');
  });
});
