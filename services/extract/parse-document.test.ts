import { describe, expect, it } from 'vitest';
import { extract } from './extract.js';

describe('parseDocument on huge attributes', () => {
  // Fuzz: mutatePage seed 1054 (huge_attribute: class of 835,714 characters) on WCXB dev 2891 was an extraction_error.
  it('reads a page whose class attribute holds hundreds of thousands of names', () => {
    const article =
      '<p>A paragraph of the article that must survive a broken attribute beside it, long enough to count.</p>';
    for (const quote of ['"', "'"]) {
      const html = `<html><body><div class=${quote}${'x y '.repeat(200_000)}${quote}>${article.repeat(4)}</div></body></html>`;
      const result = extract(html, 'https://example.test/article');
      expect(result.failureReason).toBeUndefined();
      expect(result.text).toContain('must survive a broken attribute');
    }
  });
});
