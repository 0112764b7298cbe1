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
  fixtures: [{ file: 'projects.json', query: 'gitlab', contentType: 'application/json' }],
});

describe('gitlab parser', () => {
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

  it('reads projects (hand-made fixture)', () => {
    const results = parse('projects.json', 'gitlab');
    expect(results[0]).toMatchObject({
      url: 'https://gitlab.com/gitlab-org/gitlab',
      title: 'GitLab.org / GitLab',
      author: 'GitLab.org',
    });
    expect(results[0]!.extra).toMatchObject({ stars: 5000, topics: ['ruby', 'rails'] });
    expect(results[1]).toMatchObject({ title: 'GitLab.org / GitLab FOSS', snippet: '' });
  });
});
