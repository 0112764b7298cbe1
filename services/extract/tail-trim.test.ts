import { describe, expect, it } from 'vitest';
import { extract } from './extract.js';

const sentence = (i: number): string =>
  `Sentence ${i} of the article says something long enough to count as real prose for the scorer.`;
const paragraphs = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 100)}</p>`).join('');

describe('article tails and inline links', () => {
  it('cuts plain-text teasers after a "More from" heading', () => {
    const html = `<html><body><div id="x">${paragraphs(8)}<h3>More from the Times</h3><div><p>A teaser about some other story entirely, in plain text.</p></div></div></body></html>`;
    const { text } = extract(html, 'https://example.com/a');
    expect(text).toContain(sentence(7));
    expect(text).not.toContain('teaser about some other story');
  });

  it('keeps a linked span inside a sentence', () => {
    const html = `<html><body><div>${paragraphs(6)}<p>The teardown is done, and <span><a href="https://x.test/t">the results are in</a></span>. More text follows here.</p></div></body></html>`;
    expect(extract(html, 'https://example.com/b').text).toContain('and the results are in.');
  });

  it('drops a long comment thread under a short post the site names as its body', () => {
    const comments = Array.from(
      { length: 12 },
      (_, i) => `<li><p>Comment ${i}: ${sentence(i)} ${sentence(i + 50)}</p></li>`,
    ).join('');
    const html = `<html><body><div class="entry-content"><p>${sentence(1)} ${sentence(2)} ${sentence(3)}</p></div><ol class="comments">${comments}</ol></body></html>`;
    const { text } = extract(html, 'https://example.com/c');
    expect(text).toContain(sentence(1));
    expect(text).not.toContain('Comment 3');
  });
});
