import { describe, expect, it } from 'vitest';
import { realPages } from './fixture-pages.js';
import { pickPage, renderSitePage, titleFromUrl } from './site-page.js';

describe('titleFromUrl', () => {
  it('builds a title from the path words, dropping ids and extensions', () => {
    expect(titleFromUrl('www.slashgear.com', '/2020-audi-e-tron-sportback-revealed-19600369/')).toBe(
      '2020 Audi E Tron Sportback Revealed | slashgear.com',
    );
    expect(titleFromUrl('en.wikipedia.org', '/wiki/Pacific_Ocean')).toBe('Pacific Ocean | en.wikipedia.org');
    expect(titleFromUrl('example.com', '/news/index.html?topic=bees')).toBe('News Bees | example.com');
  });

  it('falls back to the host for a bare domain', () => {
    expect(titleFromUrl('www.example.com', '/')).toBe('example.com');
  });
});

describe('pickPage', () => {
  it('is deterministic and spreads keys over the pages', () => {
    const pages = realPages();
    expect(pickPage('a.example/one', pages)).toBe(pickPage('a.example/one', pages));
    const names = new Set(Array.from({ length: 40 }, (_, i) => pickPage(`host.example/page-${i}`, pages).name));
    expect(names.size).toBeGreaterThan(2);
  });
});

describe('renderSitePage', () => {
  const canonical = 'http://127.0.0.1:1/site/example.com/bees';

  it('replaces title, first h1 and title metadata, and sets a single canonical link', () => {
    for (const page of realPages()) {
      const html = renderSitePage(page, 'Honeybee Colonies | example.com', canonical);
      expect(/<title>([^<]*)<\/title>/.exec(html)![1]).toBe('Honeybee Colonies | example.com');
      expect(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)![1]).toBe('Honeybee Colonies | example.com');
      expect(html.match(/rel="?canonical/gi)).toHaveLength(1);
      expect(html).toContain(`<link rel="canonical" href="${canonical}">`);
      expect(html).not.toMatch(/property="og:title" content="(?!Honeybee)/);
    }
  });

  it('adds an h1 when the page has none', () => {
    const page = {
      name: 'bare',
      handMade: false,
      html: '<html><head><title>Old</title></head><body><p>text</p></body></html>',
    };
    const html = renderSitePage(page, 'New <Title>', canonical);
    expect(html).toContain('<body><h1>New &lt;Title&gt;</h1><p>text</p>');
    expect(html).toContain('<title>New &lt;Title&gt;</title>');
  });
});
