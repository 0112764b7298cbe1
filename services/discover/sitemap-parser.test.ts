import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemap-parser.js';

describe('parseSitemap', () => {
  it('reads a urlset with lastmod, entities, CDATA and namespaced extras', () => {
    const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
      <!-- generated -->
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2024-05-01</lastmod>
          <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image></url>
        <url><loc><![CDATA[https://example.com/b]]></loc></url>
        <url><lastmod>2024-01-01</lastmod></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://example.com/a?x=1&y=2', lastmod: '2024-05-01' }, { loc: 'https://example.com/b' }],
    });
  });

  it('reads a sitemap index with a namespace prefix', () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:sitemap><sm:loc>https://example.com/s1.xml.gz</sm:loc><sm:lastmod>2024-02-02</sm:lastmod></sm:sitemap>
    </sm:sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'index',
      entries: [{ loc: 'https://example.com/s1.xml.gz', lastmod: '2024-02-02' }],
    });
  });

  it('reads a plain-text sitemap, one URL per line', () => {
    expect(parseSitemap('https://example.com/a\r\n\nhttps://example.com/b\nnot a url\n')).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }],
    });
  });

  it('says "not a sitemap" for HTML pages and feeds', () => {
    expect(parseSitemap('<!DOCTYPE html><html><body><p>Not found<br></body></html>')).toBeNull();
    expect(parseSitemap('<html><head><meta charset="utf-8"></head></html>')).toBeNull();
    expect(parseSitemap('<rss version="2.0"><channel></channel></rss>')).toBeNull();
    expect(parseSitemap('Sorry, nothing here.')).toBeNull();
  });

  it('throws UPSTREAM_FAILED for broken XML', () => {
    const broken = [
      '<urlset><url><loc>https://example.com/a</loc></url>',
      '<urlset><url><loc>https://example.com/a</url></urlset>',
      '<urlset><url><loc>https://example.com/a</loc></url></urlset><urlset></urlset>',
      '<urlset><!-- unterminated </urlset>',
      '<urlset><url <loc></loc></url></urlset>',
    ];
    for (const xml of broken)
      expect(() => parseSitemap(xml)).toThrow(expect.objectContaining({ code: 'UPSTREAM_FAILED' }));
  });
});
