import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made page (no real Mojeek capture exists); see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, { fixtures: [{ file: 'search.html', query: 'open source search' }] });

describe('mojeek', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('parses the result list', () => {
    const ctx = testContext(loaded.manifest, { query: 'open source search' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'search.html')),
      ctx,
    );
    expect(step).toEqual({
      results: [
        {
          url: 'https://www.openstreetmap.org/',
          title: 'OpenStreetMap & the open map of the world',
          snippet:
            'OpenStreetMap is a map of the world, created by people like you and free to use under an open licence…',
        },
        {
          url: 'https://yacy.net/',
          title: 'YaCy - The Peer to Peer Search Engine',
          snippet: 'YaCy is free software for your own search engine.',
        },
      ],
    });
  });

  it('builds the request with offset, safe search and language', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'rust', page: 2, safeSearch: 0, language: 'fr' }),
    );
    expect(request.url).toBe('https://www.mojeek.com/search?q=rust&s=11&safe=0&lb=fr');
  });
});
