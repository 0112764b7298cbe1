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
import { suggestionPath } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'suggestion-the-matrix.json', query: 'the matrix', contentType: JSON_TYPE },
    { file: 'suggestion-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('imdb', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'the matrix' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('links titles and people, skipping keywords and lists (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'suggestion-the-matrix.json'));
    expect(results.map((result) => result.url)).toEqual([
      'https://www.imdb.com/title/tt0133093/',
      'https://www.imdb.com/title/tt0234215/',
      'https://www.imdb.com/title/tt0274082/',
      'https://www.imdb.com/title/tt9999991/',
      'https://www.imdb.com/name/nm0000206/',
    ]);
    expect(results[0]).toEqual({
      url: 'https://www.imdb.com/title/tt0133093/',
      title: 'The Matrix',
      snippet: 'feature · 1999 · Keanu Reeves, Laurence Fishburne',
      thumbnail: 'https://m.media-amazon.com/images/M/MV5BExampleMatrixPoster._V1_.jpg',
      extra: { id: 'tt0133093', year: 1999, kind: 'feature', kindId: 'movie', rank: 32 },
    });
    expect(results[2]).toMatchObject({ snippet: 'video · Keanu Reeves, Carrie-Anne Moss', extra: { kind: 'video' } });
    expect(results[2]!.thumbnail).toBeUndefined();
    expect(results[3]).toMatchObject({
      title: 'Matrix & Friends',
      snippet: 'TV series · 2018-2020 · Jane Example, John Example',
      extra: { year: 2018, years: '2018-2020' },
    });
    expect(results[4]).toMatchObject({
      title: 'Keanu Reeves',
      snippet: 'Actor, The Matrix (1999)',
      extra: { id: 'nm0000206' },
    });
  });

  it('reads 404 and a missing list as no results and rejects malformed lists', () => {
    expect(parse('Not Found', 404)).toEqual([]);
    expect(parse('{"q":"x","v":1}')).toEqual([]);
    expect(() => parse('{"d":"nope"}')).toThrow(EngineParseError);
  });

  it('files the query under its first character', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: '  The Matrix ' })).url).toBe(
      'https://v2.sg.media-imdb.com/suggestion/t/the_matrix.json',
    );
    expect(suggestionPath('Amélie')).toBe('/suggestion/a/am%C3%A9lie.json');
    expect(suggestionPath('Ögedei')).toBe('/suggestion/%C3%B6/%C3%B6gedei.json');
    expect(suggestionPath('2001 a space')).toBe('/suggestion/2/2001_a_space.json');
  });
});
