import { describe, expect, it } from 'vitest';
import { decodeEntities, decodeXmlEntities } from './entities.js';

describe('decodeEntities', () => {
  it('decodes named and numeric references', () => {
    expect(decodeEntities('Tom &amp; Jerry&rsquo;s &#8220;caf&eacute;&#x201D; &lt;b&gt;')).toBe(
      'Tom & Jerry’s “café” <b>',
    );
  });

  it('turns a code point past U+10FFFF, a surrogate or zero into U+FFFD instead of throwing', () => {
    expect(decodeEntities('a&#99999999;b &#x110000; &#55296; &#0;')).toBe('a\uFFFDb \uFFFD \uFFFD \uFFFD');
  });

  it('leaves references without ";" and unknown names as written', () => {
    expect(decodeEntities('https://x.test/?a=1&copy=2 &bogus; & alone')).toBe(
      'https://x.test/?a=1&copy=2 &bogus; & alone',
    );
  });
});

describe('decodeXmlEntities', () => {
  it("decodes XML's five names and numeric references, and leaves HTML names as written", () => {
    expect(decodeXmlEntities('&amp;&lt;&gt;&quot;&apos;&#65;&#x42; &nbsp; &#99999999;')).toBe('&<>"\'AB &nbsp; \uFFFD');
  });
});

describe('references too long for a number', () => {
  it('decode to U+FFFD (entities 4.5 threw "Invalid code point NaN" past 308 digits; found by the extraction fuzz)', () => {
    expect(decodeEntities(`a &#${'9'.repeat(2000)}; b`)).toBe('a \uFFFD b');
    expect(decodeXmlEntities(`&#x${'F'.repeat(500)};`)).toBe('\uFFFD');
  });
});
