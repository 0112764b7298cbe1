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

runEngineConformance(engineDir, { fixtures: [{ file: 'hello.html', query: 'Hello' }] });

describe('aol', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('parses the recorded Hello page and decodes search.aol.com/click links', () => {
    const ctx = testContext(loaded.manifest, { query: 'Hello' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'hello.html')),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    expect(step.results).toHaveLength(9);
    expect(step.results[0]).toMatchObject({
      url: 'https://www.merriam-webster.com/dictionary/hello',
      title: 'Hello | Definition of Hello by Merriam-Webster',
    });
    expect(step.results[0]!.snippet).toMatch(/^Definition of hello : an expression or gesture of greeting/);
    expect(step.results[7]).toMatchObject({ title: 'Hello - Wikipedia', url: 'https://en.wikipedia.org/wiki/Hello' });
    expect(step.results.some((r) => r.url.includes('aol.com'))).toBe(false);
  });

  it("pages with the offset b like AOL's Next link", () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust lang', page: 2 }));
    expect(request).toEqual({
      method: 'GET',
      url: 'https://search.aol.com/aol/search?q=rust+lang&ei=UTF-8&b=11&pz=10',
    });
  });
});
