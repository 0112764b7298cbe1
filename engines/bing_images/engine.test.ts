import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineCaptchaError } from '../../core/engine.js';
import { runEngineConformance } from '../../test/contract/engine-conformance.js';
import {
  loadEngine,
  readFixture,
  testContext,
  testResponse,
  type LoadedTestEngine,
} from '../../test/contract/load-engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, { fixtures: [{ file: 'async-tiger.html', query: 'tiger' }] });

describe('bing_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'tiger' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('reads the m JSON of every tile, skipping duplicates and broken tiles', () => {
    const results = parse(readFixture(engineDir, 'async-tiger.html'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://en.wikipedia.org/wiki/Tiger',
      title: 'Tiger - Wikipedia',
      snippet: 'A Bengal tiger walking in a national park',
      imageUrl: 'https://upload.wikimedia.org/wikipedia/commons/3/3f/Walking_tiger_female.jpg',
      thumbnail: 'https://tse1.mm.bing.net/th?id=OIP.Zx9kQ1a2AbCdEfGh&pid=15.1',
      sourceUrl: 'https://en.wikipedia.org/wiki/Tiger',
      width: 2560,
      height: 1706,
    });
    expect(results[1]).toMatchObject({
      title: 'Tigers: Facts & Pictures | National Geographic',
      width: 3072,
      height: 2048,
    });
    expect(results[2]).not.toHaveProperty('width');
  });

  it('raises a CAPTCHA error on a challenge page', () => {
    expect(() =>
      parse(
        '<html><body><div id="b_captcha">Please solve the challenge</div><form ' +
          'action="/challenge/verify"></form></body></html>',
      ),
    ).toThrow(EngineCaptchaError);
  });

  it('pages by 35 with age filter, adult setting, language and country', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, {
        query: 'tiger',
        page: 3,
        timeRange: 'week',
        safeSearch: 2,
        language: 'de',
        region: 'de-AT',
      }),
    );
    expect(request.url).toBe(
      'https://www.bing.com/images/async?q=tiger&first=71&count=35&async=content&qft=%2Bfilterui%3Aage-lt1008' +
        '0&adlt=strict&setlang=de&cc=AT',
    );
  });
});
