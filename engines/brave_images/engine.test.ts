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

runEngineConformance(engineDir, {
  fixtures: [{ file: 'hello-world.json', query: 'hello world', contentType: 'application/json' }],
});

describe('brave_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'hello world' });
    const step = loaded.engine.parseResponse(
      testResponse(loaded.engine.buildRequest(ctx), body, 'application/json'),
      ctx,
    );
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses the recorded hello world answer into image results', () => {
    const results = parse(readFixture(engineDir, 'hello-world.json'));
    expect(results).toHaveLength(20);
    expect(results[1]).toMatchObject({
      url: 'https://gamerant.com/hello-world-anime-ending-was-naomis-futures-self-killed/',
      sourceUrl: 'https://gamerant.com/hello-world-anime-ending-was-naomis-futures-self-killed/',
      title: 'Hello.world.anime5',
      imageUrl: 'https://static0.gamerantimages.com/wordpress/wp-content/uploads/2024/12/hello-world-anime5.jpg',
    });
    expect(results.every((r) => r.imageUrl && r.thumbnail?.startsWith('https://imgs.search.brave.com/'))).toBe(true);
    expect(results[0]!.extra).toEqual({ source: 'istockphoto.com' });
  });

  it('keeps dimensions when the answer gives them', () => {
    const body = JSON.stringify({
      type: 'images',
      results: [
        {
          title: 'A cat',
          url: 'https://example.org/cat',
          thumbnail: { src: 'https://t.example/c.jpg' },
          properties: { url: 'https://example.org/cat.jpg', width: 800, height: 600 },
        },
      ],
    });
    expect(parse(body)[0]).toEqual({
      url: 'https://example.org/cat',
      title: 'A cat',
      snippet: '',
      imageUrl: 'https://example.org/cat.jpg',
      thumbnail: 'https://t.example/c.jpg',
      sourceUrl: 'https://example.org/cat',
      width: 800,
      height: 600,
    });
  });

  it('sends the token, strict or off safe search and no offset', () => {
    const request = loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'cats', page: 2, safeSearch: 1 }));
    expect(request.url).toBe(
      'https://api.search.brave.com/res/v1/images/search?q=cats&count=50&safesearch=strict&search_lang=en',
    );
    expect(request.headers?.['x-subscription-token']).toBe('test-key');
  });
});
