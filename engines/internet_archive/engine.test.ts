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

// Hand-made fixture from the documented advancedsearch.php JSON output; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'advancedsearch.json', query: 'night of the living dead', contentType: 'application/json' }],
});

describe('internet_archive', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'night of the living dead' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('links docs to their details pages', () => {
    const results = parse(readFixture(engineDir, 'advancedsearch.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://archive.org/details/night_of_the_living_dead',
      title: 'Night of the Living Dead',
      snippet: "George A. Romero's 1968 horror classic & the film that defined the modern zombie.",
      thumbnail: 'https://archive.org/services/img/night_of_the_living_dead',
      publishedDate: '1968-10-01',
      author: 'Image Ten',
      extra: { identifier: 'night_of_the_living_dead', mediatype: 'movies' },
    });
    expect(results[1]).toMatchObject({
      snippet: 'An audio drama adapted from the film. Recorded live in 1982.',
      publishedDate: '1982-06-12T19:30:00.000Z',
      author: 'Radio Theatre Company',
    });
    expect(results[2]).toMatchObject({ title: 'Shooting script', snippet: '', extra: { mediatype: 'texts' } });
    expect(results[2]!.publishedDate).toBeUndefined();
  });

  it('asks for the listed fields, 20 rows a page', () => {
    const url = new URL(
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'title:(apollo 11)', page: 3 })).url,
    );
    expect(url.origin + url.pathname).toBe('https://archive.org/advancedsearch.php');
    expect(url.searchParams.get('q')).toBe('title:(apollo 11)');
    expect(url.searchParams.getAll('fl[]')).toEqual([
      'identifier',
      'title',
      'description',
      'date',
      'mediatype',
      'creator',
    ]);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ rows: '20', page: '3', output: 'json' });
  });

  it('rejects answers without docs', () => {
    expect(() => parse('{"error":"Invalid query"}')).toThrow(EngineParseError);
    expect(() => parse('{"responseHeader":{"status":400}}')).toThrow(EngineParseError);
  });
});
