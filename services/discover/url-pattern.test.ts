import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { compileUrlPattern } from './url-pattern.js';

function matches(pattern: string, url: string): boolean {
  return compileUrlPattern(pattern)(new URL(url, 'https://example.com'));
}

describe('compileUrlPattern', () => {
  it('matches everything when absent or blank', () => {
    expect(compileUrlPattern(undefined)(new URL('https://example.com/a/b'))).toBe(true);
    expect(matches('  ', '/anything')).toBe(true);
  });

  it('lets * stay inside one path segment', () => {
    expect(matches('/blog/*', '/blog/hello')).toBe(true);
    expect(matches('/blog/*', '/blog/2024/hello')).toBe(false);
    expect(matches('/blog/*', '/blog/')).toBe(true);
    expect(matches('/blog/*', '/blogs/x')).toBe(false);
  });

  it('lets ** cross segments, and /**/ match zero segments', () => {
    expect(matches('/blog/**', '/blog/2024/hello')).toBe(true);
    expect(matches('**.pdf', '/docs/2024/report.pdf')).toBe(true);
    expect(matches('**.pdf', '/docs/report.html')).toBe(false);
    expect(matches('/docs/**/intro', '/docs/intro')).toBe(true);
    expect(matches('/docs/**/intro', '/docs/v1/en/intro')).toBe(true);
    expect(matches('/docs/**/intro', '/docsintro')).toBe(false);
  });

  it('treats ? as one character other than /, and \\? as a literal ?', () => {
    expect(matches('/p?ge', '/page')).toBe(true);
    expect(matches('/p?ge', '/pge')).toBe(false);
    expect(matches('/a?b', '/a/b')).toBe(false);
    expect(matches('/search\\?q=*', '/search?q=cats')).toBe(true);
    expect(matches('/search\\?q=*', '/searchXq=cats')).toBe(false);
  });

  it('expands {a,b} alternatives, nested too', () => {
    expect(matches('/{en,fr}/**', '/fr/about')).toBe(true);
    expect(matches('/{en,fr}/**', '/de/about')).toBe(false);
    expect(matches('/{docs/{v1,v2},api}/*', '/docs/v2/x')).toBe(true);
    expect(matches('/{docs/{v1,v2},api}/*', '/api/x')).toBe(true);
    expect(matches('/{docs/{v1,v2},api}/*', '/docs/v3/x')).toBe(false);
    expect(matches('/page{,s}', '/page')).toBe(true);
  });

  it('matches the query along with the path', () => {
    expect(matches('/item*', '/item?id=3')).toBe(true);
    expect(matches('/item', '/item?id=3')).toBe(false);
  });

  it('reads a pattern without a leading slash as starting at the root', () => {
    expect(matches('blog/**', '/blog/x')).toBe(true);
    expect(matches('blog/**', '/en/blog/x')).toBe(false);
  });

  it('matches a pattern starting with http against the whole URL, fragment excluded', () => {
    expect(matches('https://example.com/blog/*', 'https://example.com/blog/a#top')).toBe(true);
    expect(matches('http*://example.com/**', 'https://example.com/x/y')).toBe(true);
    expect(matches('https://example.com/blog/*', 'https://other.com/blog/a')).toBe(false);
  });

  it('agrees with the examples in docs/discover.md', () => {
    const examples: Array<[string, string[], string[]]> = [
      ['/blog/*', ['/blog/hello', '/blog/'], ['/blog/2024/hello']],
      ['/blog/**', ['/blog/2024/hello', '/blog/'], ['/blogs/x']],
      ['**.pdf', ['/docs/2024/report.pdf'], ['/docs/report.pdf?download=1']],
      ['/docs/**/intro', ['/docs/intro', '/docs/v1/en/intro'], ['/docsintro']],
      ['/{en,fr}/**', ['/en/about', '/fr/'], ['/de/about']],
      ['/product*', ['/products', '/product?id=3'], ['/product/3']],
      ['/search\\?q=*', ['/search?q=cats'], ['/searchXq=cats']],
      ['https://example.com/blog/**', ['https://example.com/blog/a'], ['http://example.com/blog/a']],
    ];
    for (const [pattern, yes, no] of examples) {
      for (const url of yes) expect(matches(pattern, url), `${pattern} ~ ${url}`).toBe(true);
      for (const url of no) expect(matches(pattern, url), `${pattern} !~ ${url}`).toBe(false);
    }
  });

  it('refuses unreadable patterns with INVALID_INPUT naming pattern', () => {
    for (const bad of ['/a/{b,c', '/a/b}', '/a\\', 'x'.repeat(501), '/{a,{b}']) {
      let thrown: unknown;
      try {
        compileUrlPattern(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect(thrown).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'pattern' } });
      expect((thrown as AppError).message).toMatch(/^pattern /);
    }
  });

  it('matches in time linear in the URL, however many alternatives and wildcards (issue 17 case 1)', () => {
    // 8 brace groups (256 alternatives) and 230 "*?" pairs against a 30,000-character URL took minutes before.
    const matcher = compileUrlPattern('{a,b}'.repeat(8) + '*?'.repeat(230));
    const url = new URL(`https://example.com/${'a'.repeat(30_000)}`);
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(matcher(url)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(
      compileUrlPattern('/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}x')(new URL('https://e.com/abababbbax')),
    ).toBe(true);
    // Every wildcard alive at once, all the way along the URL.
    const busy = compileUrlPattern('/' + '*?'.repeat(230) + 'b');
    for (let i = 0; i < 20; i++) expect(busy(url)).toBe(false);
    expect(busy(new URL(`https://example.com/${'a'.repeat(500)}b`))).toBe(true);
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('stays fast on patterns that would make a backtracking regex explode', () => {
    const started = Date.now();
    const url = new URL(`https://example.com/${'a'.repeat(2000)}`);
    expect(compileUrlPattern('/**a**a**a**a**a**a**a**a**b')(url)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
