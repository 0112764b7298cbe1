import { describe, expect, it } from 'vitest';
import { parseDocument } from './parse-document.js';
import { extract } from './extract.js';
import { pageMedia, readMediaSources } from './page-media.js';

describe('page media', () => {
  it('describes main-content images by alt text, else caption, and finds the favicon', () => {
    const html = `<html><head><link rel="shortcut icon" href="/fav.ico"></head><body>
      <img src="/a.jpg" alt="A red barn">
      <figure><img data-src="b.jpg"><figcaption> Sheep in  snow </figcaption></figure>
      <img src="/nav.png" alt="logo"></body></html>`;
    const media = pageMedia(
      readMediaSources(parseDocument(html), 'https://farm.example/post/1'),
      'https://farm.example/post/1',
      ['https://farm.example/a.jpg', 'https://farm.example/post/b.jpg', 'https://farm.example/c.jpg'],
    );
    expect(media.images).toEqual([
      { url: 'https://farm.example/a.jpg', description: 'A red barn' },
      { url: 'https://farm.example/post/b.jpg', description: 'Sheep in snow' },
      { url: 'https://farm.example/c.jpg', description: null },
    ]);
    expect(media.favicon).toBe('https://farm.example/fav.ico');
    expect(pageMedia(undefined, 'https://farm.example/x', []).favicon).toBe('https://farm.example/favicon.ico');
  });
});

describe('page media through extraction', () => {
  it('describes the images of a page with a <base href> by the URLs the main content lists', () => {
    const html = `<html><head><base href="https://cdn.farm.example/post/"><link rel="icon" href="icon.png"></head>
      <body><article><h1>Lambing season</h1>
      <p>The first lambs of the season arrived on a cold night in March, and the shepherd stayed up with the ewes.</p>
      <figure><img src="lamb.jpg"><figcaption>A lamb an hour old</figcaption></figure>
      <p>By morning eleven lambs stood in the straw, each one marked with its mother's number in blue chalk.</p>
      </article></body></html>`;
    const result = extract(html, 'https://farm.example/post/1', { media: true });
    expect(result.images).toEqual(['https://cdn.farm.example/post/lamb.jpg']);
    expect(result.media).toEqual({
      images: [{ url: 'https://cdn.farm.example/post/lamb.jpg', description: 'A lamb an hour old' }],
      favicon: 'https://cdn.farm.example/post/icon.png',
    });
  });

  it('gives a page the parser refuses its /favicon.ico', () => {
    const deep = `<html><body>${'<div>'.repeat(600)}text${'</div>'.repeat(600)}</body></html>`;
    const result = extract(deep, 'https://farm.example/deep', { media: true });
    expect(result.success).toBe(false);
    expect(result.media).toEqual({ images: [], favicon: 'https://farm.example/favicon.ico' });
  });
});
