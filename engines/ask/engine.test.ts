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

describe('ask', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  it('parses the recorded Hello page', () => {
    const ctx = testContext(loaded.manifest, { query: 'Hello' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), readFixture(engineDir, 'hello.html')),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    expect(step.results).toHaveLength(10);
    expect(step.results[1]).toEqual({
      url: 'https://www.instructables.com/community/Hello-everyone-6/',
      title: 'Hello everyone! - Instructables',
      snippet: expect.stringMatching(/^Hi there, I’m Frances P. Frazier/) as string,
    });
    expect(step.results[7]).toMatchObject({
      url: 'https://www.lifewire.com/what-is-windows-hello-4782168',
      title: 'What Is Windows Hello?',
    });
  });

  it('pages with page=', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rust lang', page: 2 })).url).toBe(
      'https://www.ask.com/web?q=rust+lang&page=2',
    );
  });
});
