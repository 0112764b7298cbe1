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
import { imageLinkTarget } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, { fixtures: [{ file: 'isch-basic.html', query: 'lighthouse' }] });

describe('google_images', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'lighthouse' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses thumbnails with their pages and captions', () => {
    const results = parse(readFixture(engineDir, 'isch-basic.html'));
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      url: 'https://en.wikipedia.org/wiki/Lighthouse',
      title: 'Lighthouse - Wikipedia',
      snippet: '',
      imageUrl: 'https://encrypted-tbn0.gstatic.com/images?q=tbn:ANd9GcT1lighthouse&s',
      thumbnail: 'https://encrypted-tbn0.gstatic.com/images?q=tbn:ANd9GcT1lighthouse&s',
      sourceUrl: 'https://en.wikipedia.org/wiki/Lighthouse',
      extra: { source: 'en.wikipedia.org' },
    });
    expect(results[1]).toMatchObject({
      title: "Peggy's Cove Lighthouse & village",
      extra: { source: 'example-coast.com' },
    });
    expect(results[2]).toMatchObject({
      url: 'https://photos.example.org/storm',
      title: 'Lighthouse in a storm',
      imageUrl: 'https://cdn.example.org/photos/lighthouse-storm.jpg',
      width: 1620,
      height: 1080,
    });
  });

  it('takes the caption line naming the page host (www2. too, any case) for the domain, not the title', () => {
    const tile =
      '<td><a href="/url?q=https://www2.Example.com/p"><img src="https://encrypted-tbn0.gstatic.com/t.png"></a>' +
      '<span>WWW2.example.com</span><span>The real title</span></td>';
    const [result] = parse(`<html><body><table><tr>${tile}</tr></table></body></html>`);
    expect(result).toMatchObject({ title: 'The real title', extra: { source: 'example.com' } });
  });

  it('decodes /imgres links', () => {
    expect(imageLinkTarget('/imgres?imgurl=https://x.test/a.png&imgrefurl=https://x.test/p&w=10&h=20')).toEqual({
      page: 'https://x.test/p',
      imageUrl: 'https://x.test/a.png',
      width: 10,
      height: 20,
    });
    expect(imageLinkTarget('/search?q=x')).toBeUndefined();
  });

  it('raises a CAPTCHA error on a reCAPTCHA page', () => {
    const page =
      '<html><body><form id="captcha-form" action="index" method="post"><div ' +
      'class="g-recaptcha"></div></form>Our systems have detected unusual traffic from your computer ' +
      'network.</body></html>';
    expect(() => parse(page)).toThrow(EngineCaptchaError);
  });

  it('builds the image tab request', () => {
    const request = loaded.engine.buildRequest(
      testContext(loaded.manifest, { query: 'lighthouse', page: 2, timeRange: 'year', safeSearch: 0, language: 'fr' }),
    );
    expect(request.url).toBe(
      'https://www.google.com/search?q=lighthouse&tbm=isch&start=20&tbs=qdr%3Ay&safe=off&hl=fr&lr=lang_fr&ie=' +
        'utf8&oe=utf8',
    );
  });
});
