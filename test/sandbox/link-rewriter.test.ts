import { describe, expect, it } from 'vitest';
import { rewriteLinks, siteUrlFor } from './link-rewriter.js';

const SANDBOX = 'http://127.0.0.1:4321';
const rewrite = (body: string, keepHosts: string[] = []) => rewriteLinks(body, { sandboxUrl: SANDBOX, keepHosts });

describe('rewriteLinks', () => {
  it('points raw result links at the sandbox and lists them', () => {
    const { body, links } = rewrite('<a href="https://www.example.com/articles/bread">Bread</a>');
    expect(body).toBe(`<a href="${SANDBOX}/site/www.example.com/articles/bread">Bread</a>`);
    expect(links).toEqual([
      {
        original: 'https://www.example.com/articles/bread',
        sandboxUrl: `${SANDBOX}/site/www.example.com/articles/bread`,
      },
    ]);
  });

  it('keeps an HTML-escaped query as it was', () => {
    const { body, links } = rewrite('<a href="http://news.example.org/item?id=7&amp;page=2">x</a>');
    expect(body).toBe(`<a href="${SANDBOX}/site/news.example.org/item?id=7&amp;page=2">x</a>`);
    expect(links[0]!.original).toBe('http://news.example.org/item?id=7&page=2');
  });

  it('rewrites a percent-encoded link inside a redirect query (DuckDuckGo uddg)', () => {
    const html =
      '<a href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FSourdough&amp;rut=abc">x</a>';
    const { body, links } = rewrite(html);
    const href = /href="([^"]+)"/.exec(body)![1]!.replace(/&amp;/g, '&');
    const target = new URL(href, 'https://duckduckgo.com').searchParams.get('uddg');
    expect(target).toBe(`${SANDBOX}/site/en.wikipedia.org/wiki/Sourdough`);
    expect(links[0]!.original).toBe('https://en.wikipedia.org/wiki/Sourdough');
  });

  it('stops a percent-encoded link at the first raw slash (Yahoo RU=…/RK=2)', () => {
    const { links } = rewrite(
      'href="https://r.search.yahoo.com/_ylt=A/RU=https%3a%2f%2fpastebin.com%2fFvruk05Z/RK=2/RS=q-"',
    );
    expect(links.map((link) => link.original)).toEqual(['https://pastebin.com/Fvruk05Z']);
  });

  it('rewrites JSON-escaped links so the JSON still parses to a sandbox URL', () => {
    const json = '{"results":[{"url":"https:\\/\\/blog.example.net\\/posts\\/1?x=1\\u0026y=2"}]}';
    const { body, links } = rewrite(json);
    expect(JSON.parse(body).results[0].url).toBe(`${SANDBOX}/site/blog.example.net/posts/1?x=1&y=2`);
    expect(links[0]!.original).toBe('https://blog.example.net/posts/1?x=1&y=2');
  });

  it('ends a raw link that is a query value at the next &amp; (Google /url?q=)', () => {
    const { body, links } = rewrite('<a href="/url?q=https://docs.example.com/guide&amp;sa=U&amp;ved=2ah">x</a>');
    expect(body).toContain(`/url?q=${SANDBOX}/site/docs.example.com/guide&amp;sa=U`);
    expect(links[0]!.original).toBe('https://docs.example.com/guide');
  });

  it('leaves engine hosts, static assets, namespaces and the sandbox itself alone', () => {
    const html = [
      '<html xmlns="http://www.w3.org/1999/xhtml">',
      '<link rel="stylesheet" href="https://cdn.example.com/site.css">',
      '<img src="https://images.example.com/photo.JPG?w=200">',
      '<script src="https://cdn.example.com/app.js"></script>',
      '<a href="https://www.google.com/preferences">prefs</a>',
      '<a href="https://duckduckgo.com/about">about</a>',
      `<a href="${SANDBOX}/site/a.example/b">already</a>`,
      '<a href="https://fonts.example.com/font.woff2">font</a>',
    ].join('\n');
    const { body, links } = rewrite(html);
    expect(body).toBe(html);
    expect(links).toEqual([]);
  });

  it('leaves the hosts it is told to keep, subdomains included', () => {
    const { links } = rewrite(
      '<a href="https://arxiv.org/abs/1">a</a> <a href="http://export.arxiv.org/api">b</a> <a ' +
        'href="https://other.org/">c</a>',
      ['arxiv.org'],
    );
    expect(links.map((link) => link.original)).toEqual(['https://other.org/']);
  });
});

describe('siteUrlFor', () => {
  it('keeps host, path and query, drops the fragment', () => {
    expect(siteUrlFor(SANDBOX, 'https://Example.com/a/b?c=1#top')).toBe(`${SANDBOX}/site/example.com/a/b?c=1`);
  });
});
