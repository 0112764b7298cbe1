import { describe, expect, it } from 'vitest';
import { MAX_MARKUP_DEPTH } from '../../services/extract/types.js';
import { plainText, probesOf, squash } from './fuzz-check.js';
import { MUTATION_KINDS, mutatePage } from './page-mutator.js';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>T</title>
<script type="application/ld+json">{"@type":"NewsArticle","headline":"H","author":{"name":"A"}}</script></head>
<body><main><article><h1>Heading</h1><p>First paragraph with caf\u00e9 and enough words to read.</p><p>Second paragraph.</p>
<table><tr><td>cell</td></tr></table><a href="/x">link</a><img src="/i.png" alt="pic"></article></main></body></html>`;

describe('mutatePage', () => {
  it('is deterministic: the same seed gives the same page', () => {
    for (let seed = 0; seed < 50; seed++) expect(mutatePage(PAGE, seed)).toEqual(mutatePage(PAGE, seed));
  });

  it('changes the page with every kind, and names it', () => {
    for (const kind of MUTATION_KINDS) {
      const mutated = mutatePage(PAGE, 7, kind);
      expect(mutated.kinds).toEqual([kind]);
      expect(mutated.notes.length).toBeGreaterThan(0);
      expect(mutated.bytes !== undefined || mutated.html !== PAGE).toBe(true);
    }
  });

  it('truncates to a prefix', () => {
    const { html } = mutatePage(PAGE, 3, 'truncate');
    expect(PAGE.startsWith(html)).toBe(true);
    expect(html.length).toBeLessThan(PAGE.length);
  });

  it('hands encoding mutations over as bytes with a header', () => {
    const charset = mutatePage(PAGE, 5, 'wrong_charset');
    expect(charset.bytes).toBeInstanceOf(Uint8Array);
    expect(charset.contentTypeHeader).toMatch(/^text\/html/);
    const invalid = mutatePage(PAGE, 5, 'invalid_bytes');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(invalid.bytes)).toThrow();
  });

  it('breaks the JSON-LD', () => {
    const { html } = mutatePage(PAGE, 11, 'json_ld');
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(json).not.toBe('{"@type":"NewsArticle","headline":"H","author":{"name":"A"}}');
  });

  it('nests well under the depth the extractor reads', () => {
    for (let seed = 0; seed < 20; seed++) {
      const { html, notes } = mutatePage(PAGE, seed, 'deep_nesting');
      const depth = Number(/^(\d+) nested/.exec(notes[0]!)?.[1]);
      expect(depth).toBeLessThanOrEqual(MAX_MARKUP_DEPTH / 4);
      expect(html.length).toBeGreaterThan(PAGE.length);
    }
  });
});

describe('the fuzz measure', () => {
  it('reads a page plainly: no tags, scripts or styles, references decoded', () => {
    expect(plainText('<p>a&amp;b</p><script>var x = "<p>";</script><style>p{}</style><!-- c -->d<b')).toBe(
      ' a&b    d ',
    );
  });

  it('probes each long paragraph in the middle, ignoring case, spaces and punctuation', () => {
    expect(probesOf('Short.\nThe Quick, brown fox jumps over the lazy dog again and again.')).toEqual([
      'brownfoxjumpsoverthelazydogagain',
    ]);
    expect(squash('Brown, fox!')).toBe('brownfox');
  });
});
