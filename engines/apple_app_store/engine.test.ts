import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineParseError, EngineRateLimitedError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';
import { storeUrl } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));
// The iTunes Search API answers JSON labelled text/javascript.
const JSON_TYPE = 'text/javascript; charset=utf-8';

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-notes.json', query: 'notes', contentType: JSON_TYPE },
    { file: 'search-empty.json', query: 'qwxzqwxz', contentType: JSON_TYPE, expectResults: false },
  ],
});

describe('apple_app_store', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string, status = 200) => {
    const ctx = testContext(loaded.manifest, { query: 'notes' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, JSON_TYPE, status),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses apps with icon, developer, price and rating (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'search-notes.json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      url: 'https://apps.apple.com/us/app/example-notes-markdown-sync/id1234567890',
      title: 'Example Notes – Markdown & Sync',
      thumbnail:
        'https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/aa/bb/cc/aabbccdd-0000-1111-2222-333344445555/' +
        'AppIcon.png/100x100bb.jpg',
      author: 'Example Labs GmbH',
      publishedDate: '2019-06-03T07:00:00.000Z',
      extra: {
        price: 'Free',
        rating: 4.71234,
        ratingCount: 10523,
        genre: 'Productivity',
        version: '5.2.1',
        bundleId: 'com.example.notes',
        contentRating: '4+',
      },
    });
    expect(results[0]!.snippet).toMatch(/^Example Notes is a fast, private note taker\. Write in Markdown/);
    expect(results[0]!.snippet.length).toBeLessThanOrEqual(300);
    expect(results[0]!.snippet.endsWith('…')).toBe(true);
    expect(results[1]).toMatchObject({
      title: 'Study Cards',
      snippet: 'Flash cards with spaced repetition.',
      extra: { price: '$2.99', rating: 4.5 },
    });
  });

  it('types error answers', () => {
    expect(() =>
      parse('{"errorMessage":"Invalid value(s) for key(s): [mediaType]","queryParameters":{}}', 400),
    ).toThrow(EngineParseError);
    expect(() => parse('', 403)).toThrow(EngineRateLimitedError);
    expect(storeUrl('https://apps.apple.com/us/app/x/id1?uo=4&mt=8')).toBe('https://apps.apple.com/us/app/x/id1?mt=8');
  });

  it('asks for software, adds explicit=No only with strict safe search and honours the country option', () => {
    const ctx = testContext(loaded.manifest, { query: 'photo editor', safeSearch: 2 });
    expect(loaded.engine.buildRequest(ctx).url).toBe(
      'https://itunes.apple.com/search?term=photo+editor&entity=software&media=software&limit=20&country=US&e' +
        'xplicit=No',
    );
    ctx.settings.options = { country: 'de' };
    ctx.query.safeSearch = 1;
    expect(loaded.engine.buildRequest(ctx).url).toBe(
      'https://itunes.apple.com/search?term=photo+editor&entity=software&media=software&limit=20&country=DE',
    );
  });
});
