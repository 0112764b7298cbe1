/**
 * A malformed optional part loses that part, not the page: the JSON-LD of
 * a real article (zyte-spacenews-clps) is replaced with one whose headline
 * holds a numeric reference past U+10FFFF, which once threw a RangeError
 * out of the JSON-LD reader and failed the whole page (issue 44).
 */
import { describe, expect, it } from 'vitest';
import { loadPage } from '../../test/fixtures/pages/load-page.js';
import { PartWarnings } from './contained.js';
import { extract } from './extract.js';

const URL = 'https://spacenews.com/nasa-selects-clps/';

/** The page with its own JSON-LD blocks replaced by one. */
function withJsonLd(html: string, jsonLd: string): string {
  const without = html.replace(/<script[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script>/gi, '');
  return without.replace('</head>', `<script type="application/ld+json">${jsonLd}</script></head>`);
}

describe('extraction keeps the page when a part is malformed', () => {
  const page = loadPage('zyte-spacenews-clps.html.gz');
  const clean = extract(page, URL);

  it('reads the article with JSON-LD whose strings hold &#99999999;', () => {
    const bad = withJsonLd(
      page,
      '{"@type":"NewsArticle","headline":"Moon &#99999999; landers","author":{"@type":"Person","name":"Jeff ' +
        '&#x110000; Foust"},"keywords":"moon,&#99999999;"}',
    );
    const result = extract(bad, URL);
    expect(clean.success).toBe(true);
    expect(result.success).toBe(true);
    expect(result.text).toBe(clean.text);
    expect(result.metadata.author).toBe('Jeff \uFFFD Foust');
  });

  it('drops JSON-LD that breaks its reader, with a warning, and keeps the meta tags and text', () => {
    // An author nested 100,000 arrays deep overflows the reader's recursion.
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const result = extract(withJsonLd(page, `{"@type":"NewsArticle","headline":${deep}}`), URL);
    expect(result.success).toBe(true);
    expect(result.text).toBe(clean.text);
    expect(result.warnings).toEqual([{ part: 'json_ld', reason: expect.stringMatching(/RangeError/) }]);
    expect(result.metadata.description).toBe(clean.metadata.description);
  });

  it('a clean page carries no warnings', () => {
    expect(clean.warnings).toBeUndefined();
  });
});

describe('PartWarnings', () => {
  it('answers the fallback and names the part when it throws', () => {
    const warnings = new PartWarnings();
    expect(warnings.contain('images', () => [1], [])).toEqual([1]);
    expect(
      warnings.contain('images', () => {
        throw new TypeError('bad');
      }, []),
    ).toEqual([]);
    expect(warnings.list).toEqual([{ part: 'images', reason: 'TypeError: bad' }]);
  });
});

describe('stray document tags', () => {
  it('reads on past a stray </body></html>, a second <html><body> and a <head> in the body, as a browser does', () => {
    const prose = 'The starter doubles within hours of a feeding and smells pleasantly sour. '.repeat(8);
    const page = `<!doctype html><html><head><title>Starter</title></head><body><main><article><h1>Starter</h1><p>${prose}</p></body></html><html><body><head><p>Second part: ${prose}</p></article></main></body></html>`;
    const result = extract(page, 'https://example.test/starter');
    expect(result.success).toBe(true);
    expect(result.text).toContain('Second part:');
  });

  it("takes tags in comments and scripts for text: an IE conditional comment's <html> is not the page's", () => {
    // The shape of many real pages (e.g. the trafilatura evaluation's WordPress themes): an <html> per old
    // browser in conditional comments, then the real one; and a script writing document tags.
    const prose = 'The starter doubles within hours of a feeding and smells pleasantly sour. '.repeat(8);
    const page =
      '<!DOCTYPE html><!--[if IE 7]><html class="ie ie7" lang="en"><![endif]--><!--[if !IE]><!--><html ' +
      'lang="en"><!--<![endif]-->' +
      `<head><title>Starter</title><script>document.write('<body><p>not this</p></body>')</script></head>` +
      `<body><main><article><h1>Starter</h1><p>${prose}</p></article></main></body></html>`;
    const result = extract(page, 'https://example.test/starter');
    expect(result.success).toBe(true);
    expect(result.text).toContain('smells pleasantly sour');
    expect(result.text).not.toContain('not this');
  });
});
