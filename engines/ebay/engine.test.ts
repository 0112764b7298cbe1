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
import { cleanItemUrl } from './engine.js';

const engineDir = fileURLToPath(new URL('.', import.meta.url));

runEngineConformance(engineDir, {
  fixtures: [
    { file: 'search-lego.html', query: 'lego millennium falcon' },
    { file: 'search-none.html', query: 'qwxzqwxz', expectResults: false },
  ],
});

describe('ebay', () => {
  let loaded: LoadedTestEngine;
  beforeAll(async () => {
    loaded = await loadEngine(engineDir);
  });

  const parse = (body: string) => {
    const ctx = testContext(loaded.manifest, { query: 'lego millennium falcon' });
    const step = loaded.engine.parseResponse(testResponse(loaded.engine.buildRequest(ctx), body), ctx);
    if (!('results' in step)) throw new Error('expected results');
    return step.results;
  };

  it('parses listings with price and shipping, skipping the placeholder and fewer-word matches (hand-made fixture)', () => {
    const results = parse(readFixture(engineDir, 'search-lego.html'));
    expect(results.map((result) => result.title)).toEqual([
      'LEGO Star Wars 75192 Millennium Falcon UCS & Minifigures',
      'LEGO 7965 Millennium Falcon – complete, no box',
      'LEGO Millennium Falcon Microfighter 75295',
    ]);
    expect(results[0]).toEqual({
      url: 'https://www.ebay.com/itm/256012345678',
      title: 'LEGO Star Wars 75192 Millennium Falcon UCS & Minifigures',
      snippet: 'Brand New',
      thumbnail: 'https://i.ebayimg.com/thumbs/images/g/AbCdEfGhIjKlMnOp/s-l300.webp',
      extra: {
        price: '$749.99',
        shipping: 'Free shipping',
        location: 'from United Kingdom',
        condition: 'Brand New',
        buyingFormat: 'Buy It Now',
        seller: 'brickdealer (1,234) 99.8%',
      },
    });
    expect(results[1]).toMatchObject({
      url: 'https://www.ebay.com/itm/175987654321',
      snippet: 'Pre-Owned · LEGO · Built once, all pieces verified',
      thumbnail: 'https://i.ebayimg.com/thumbs/images/g/QrStUvWxYz012345/s-l300.jpg',
      extra: {
        price: '$120.00',
        bids: '7 bids',
        timeLeft: '1d 4h',
        shipping: '+$14.95 shipping',
        condition: 'Pre-Owned',
      },
    });
    // Relative links resolve against the page; no image, no thumbnail.
    expect(results[2]).toMatchObject({
      url: 'https://www.ebay.com/itm/305111222333',
      snippet: '',
      extra: { price: '$9.99 to $14.99' },
    });
    expect(results[2]!.thumbnail).toBeUndefined();
  });

  it('answers the no-match page with no results and a block page with a CAPTCHA error', () => {
    expect(parse(readFixture(engineDir, 'search-none.html'))).toEqual([]);
    const block =
      '<html><head><title>Pardon Our Interruption...</title></head><body><p>As you were browsing something ' +
      'about your browser made us think you were a bot.</p></body></html>';
    expect(() => parse(block)).toThrow(EngineCaptchaError);
  });

  it('pages with _pgn and strips tracking from item links', () => {
    const build = (page: number) =>
      loaded.engine.buildRequest(testContext(loaded.manifest, { query: 'lego falcon', page })).url;
    expect(build(1)).toBe('https://www.ebay.com/sch/i.html?_nkw=lego+falcon');
    expect(build(3)).toBe('https://www.ebay.com/sch/i.html?_nkw=lego+falcon&_pgn=3');
    expect(cleanItemUrl('https://www.ebay.com/itm/1?hash=x#y', 'https://www.ebay.com/')).toBe(
      'https://www.ebay.com/itm/1',
    );
    expect(cleanItemUrl('javascript:void(0)', 'https://www.ebay.com/')).toBeUndefined();
  });
});
