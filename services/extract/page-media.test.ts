import { describe, expect, it } from 'vitest';
import { pageMedia } from './page-media.js';

describe('page media', () => {
  it('describes main-content images by alt text, else caption, and finds the favicon', () => {
    const html = `<html><head><link rel="shortcut icon" href="/fav.ico"></head><body>
      <img src="/a.jpg" alt="A red barn">
      <figure><img data-src="b.jpg"><figcaption> Sheep in  snow </figcaption></figure>
      <img src="/nav.png" alt="logo"></body></html>`;
    const media = pageMedia(html, 'https://farm.example/post/1', [
      'https://farm.example/a.jpg',
      'https://farm.example/post/b.jpg',
      'https://farm.example/c.jpg',
    ]);
    expect(media.images).toEqual([
      { url: 'https://farm.example/a.jpg', description: 'A red barn' },
      { url: 'https://farm.example/post/b.jpg', description: 'Sheep in snow' },
      { url: 'https://farm.example/c.jpg', description: null },
    ]);
    expect(media.favicon).toBe('https://farm.example/fav.ico');
    expect(pageMedia(undefined, 'https://farm.example/x', []).favicon).toBe('https://farm.example/favicon.ico');
  });
});
