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

const engineDir = fileURLToPath(new URL('.', import.meta.url));

// Hand-made fixture; see fixtures/PROVENANCE.md.
runEngineConformance(engineDir, {
  fixtures: [{ file: 'search.json', query: 'rails', contentType: 'application/json' }],
});

describe('rubygems', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'rails' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses gems', () => {
    const results = parse(readFixture(engineDir, 'search.json'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://rubygems.org/gems/rails',
      title: 'rails',
      snippet:
        'Ruby on Rails is a full-stack web framework optimized for programmer happiness and sustainable productivity.',
      author: 'David Heinemeier Hansson',
      publishedDate: '2024-08-22T21:39:13.811Z',
      extra: {
        version: '7.2.1',
        downloads: 611423011,
        licenses: ['MIT'],
        repository: 'https://github.com/rails/rails/tree/v7.2.1',
        homepage: 'https://rubyonrails.org/',
      },
    });
    expect(results[1]).toMatchObject({
      title: 'rails-html-sanitizer',
      snippet: 'HTML sanitization for Rails applications & friends',
    });
    expect(results[2]!.extra).toEqual({ version: '7.2.1', downloads: 598000000 });
  });

  it('pages with page= and rejects non-list answers', () => {
    expect(loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'rack', page: 2 })).url).toBe(
      'https://rubygems.org/api/v1/search.json?query=rack&page=2',
    );
    expect(parse('[]')).toEqual([]);
    expect(() => parse('{"error":"Internal Server Error"}')).toThrow(EngineParseError);
  });
});
