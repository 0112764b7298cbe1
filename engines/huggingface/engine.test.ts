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
  fixtures: [{ file: 'models.json', query: 'bert', contentType: 'application/json' }],
});

describe('huggingface parser', () => {
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

  it('reads models into hub URLs (hand-made fixture)', () => {
    const results = parse('models.json', 'bert');
    expect(results[0]).toMatchObject({
      url: 'https://huggingface.co/google-bert/bert-base-uncased',
      title: 'google-bert/bert-base-uncased',
      author: 'google-bert',
    });
    expect(results[0]!.snippet).toBe('fill-mask · transformers · 60000000 downloads · 2100 likes');
    expect(results[1]!.url).toBe('https://huggingface.co/distilbert-base-uncased');
  });
});
