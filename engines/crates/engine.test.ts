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
  fixtures: [{ file: 'crates.json', query: 'serde', contentType: 'application/json' }],
});

describe('crates parser', () => {
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

  it('reads crates into crates.io URLs (hand-made fixture)', () => {
    const results = parse('crates.json', 'serde');
    expect(results[0]).toMatchObject({
      url: 'https://crates.io/crates/serde',
      title: 'serde',
      snippet: 'A generic serialization/deserialization framework',
    });
    expect(results[0]!.extra).toMatchObject({ version: '1.0.210', repository: 'https://github.com/serde-rs/serde' });
    expect(results[1]!.snippet).toBe('A JSON serialization file format');
  });
});
