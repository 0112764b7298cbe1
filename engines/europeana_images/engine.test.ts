import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineAccessDeniedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [{ file: 'search_example.json', query: '*', contentType: 'application/json' }],
});

describe('europeana_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: '*' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json', status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded answer into image results', () => {
    const results = parse(readFixture(engineDir, 'search_example.json'));
    expect(results).toHaveLength(27);
    expect(results[0]).toMatchObject({
      url: 'https://www.europeana.eu/item/2022704/lod_oai_bibliotecadigital_jcyl_es_26229_ent1',
      title:
        'Claustro del Monasterio de S. Salvador en Oña [Material gráfico]= Cloître du Monastère de S. Salvador à Oña',
      snippet: 'Sello en seco: España artística y monumental.',
      imageUrl: 'http://bibliotecadigital.jcyl.es/i18n/catalogo_imagenes/imagen_id.cmd?idImagen=102620362',
      sourceUrl: 'http://bibliotecadigital.jcyl.es/i18n/consulta/registro.cmd?id=26229',
      extra: { provider: 'Biblioteca Digital de Castilla y León', country: 'Spain' },
    });
    expect(results[0]!.thumbnail).toMatch(/^https:\/\/api\.europeana\.eu\/api\/v2\/thumbnail-by-url\.json\?uri=/);
    // Creators given only as linked-data URIs are left out; plain names are kept.
    expect(results[0]!.author).toBeUndefined();
    expect(results[5]).toMatchObject({
      title: '[Letra de cambio a favor del capitán del regimiento próximo a Valladolid]. [Material gráfico]',
      author: 'Anonymous',
      extra: { year: '1829' },
    });
    expect(results.every((r) => r.imageUrl && r.thumbnail && !r.url.includes('utm_'))).toBe(true);
  });

  it('turns a key error into access denied', () => {
    const body = JSON.stringify({ apikey: 'bad', success: false, error: 'Invalid API key' });
    expect(() => parse(body, 401)).toThrow(EngineAccessDeniedError);
  });

  it('answers a search without hits with no results', () => {
    expect(
      parse(JSON.stringify({ apikey: 'k', success: true, requestNumber: 1, itemsCount: 0, totalResults: 0 })),
    ).toEqual([]);
  });

  it('asks for image records with the key and start-based paging', () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'Salamanca', page: 3 }));
    expect(request.url).toBe(
      'https://api.europeana.eu/record/v2/search.json?wskey=test-key&query=Salamanca&qf=TYPE%3AIMAGE&media=tr' +
        'ue&thumbnail=true&profile=standard&rows=20&start=41',
    );
  });
});
