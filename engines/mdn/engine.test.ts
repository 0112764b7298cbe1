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
  fixtures: [{ file: 'search.json', query: 'fetch', contentType: 'application/json' }],
});

describe('mdn parser', () => {
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

  it('maps the language to an MDN locale', () => {
    const url = (language: string) =>
      new URL(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'fetch', language })).url);
    expect(url('pt').searchParams.get('locale')).toBe('pt-BR');
    expect(url('en').searchParams.get('locale')).toBe('en-US');
    expect(url('all').searchParams.get('locale')).toBe('en-US');
  });

  it('reads documents into absolute MDN URLs (hand-made fixture)', () => {
    const results = parse('search.json', 'fetch');
    expect(results[0]).toMatchObject({
      url: 'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API',
      title: 'Fetch API',
    });
    expect(results[1]!.snippet).toContain('resource & returns a promise');
  });
});
