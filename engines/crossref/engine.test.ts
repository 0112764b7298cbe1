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
import { dateFromParts } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
const JSON_TYPE = 'application/json';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'works-rows-2.json', query: '', contentType: JSON_TYPE },
    {
      file: 'works-query-title.json',
      query: 'Effect of native oxide layers on copper thin-film tensile properties',
      contentType: JSON_TYPE,
    },
  ],
});

describe('crossref', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'x' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded works list', () => {
    const results = parse(readFixture(engineDir, 'works-rows-2.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      title: 'Soziale Innovation',
      url: 'https://doi.org/10.1007/978-3-658-17671-6_18-1',
      doi: '10.1007/978-3-658-17671-6_18-1',
      authors: ['Jürgen Howaldt', 'Michael Schwarz'],
      publishedDate: '2018-11-03',
      extra: { journal: 'Handbuch Innovationsforschung', type: 'book-chapter' },
    });
    expect(results[1]).toMatchObject({ title: 'Loot Crates', publishedDate: '2024' });
    expect(results[1]!.authors).toBeUndefined();
  });

  it('uses the JATS abstract, stripped, as the snippet', () => {
    const [paper] = parse(readFixture(engineDir, 'works-query-title.json'));
    expect(paper).toMatchObject({
      title:
        'Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study',
      doi: '10.1063/1.4938384',
      publishedDate: '2015-12-21',
      author: 'Michael D. Skarlinski',
      extra: { journal: 'Journal of Applied Physics' },
    });
    expect(paper!.snippet).toMatch(/^Metal-oxide layers are likely to be present/);
    expect(paper!.snippet.length).toBeLessThanOrEqual(400);
  });

  it('rejects a failed answer', () => {
    expect(() =>
      parse('{"status":"failed","message-type":"validation-failure","message":[{"type":"parameter-not-allowed"}]}'),
    ).toThrow(EngineParseError);
  });

  it('pages with rows and offset and passes mailto', () => {
    const ctx = testContext(loaded.manifest, { query: 'copper oxide', page: 3 });
    ctx.settings.options = { mailto: 'ops@example.org' };
    expect(loaded.engine.buildRequest(ctx).url).toBe(
      'https://api.crossref.org/works?query=copper+oxide&rows=10&offset=20&mailto=ops%40example.org',
    );
    expect(dateFromParts({ 'date-parts': [[2020, 2]] })).toBe('2020-02');
    expect(dateFromParts({ 'date-parts': [[null]] })).toBeUndefined();
  });
});
