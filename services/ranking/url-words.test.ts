import { describe, expect, it } from 'vitest';
import { urlWords } from './url-words.js';

describe('urlWords: one reading of a URL for lexical scoring', () => {
  it('reads the path and query, page extensions, one-character words and ids left out', () => {
    expect(urlWords('https://x.org/guides/tomato-watering_tips.html?page=2')).toBe('guides tomato watering tips page');
    expect(urlWords('https://www.bbc.co.uk/news/articles/c0481593?at_medium=RSS')).toBe(
      'news articles c0481593 at medium RSS',
    );
    expect(urlWords('https://en.wikipedia.org/wiki/Heat_pump/1234567')).toBe('wiki Heat pump');
  });

  it('puts the host name first when asked (the agent ranks URLs against instructions by it)', () => {
    expect(urlWords('https://example.com/heat-pumps/history_of%20pumps?page=2', { host: true })).toBe(
      'example com heat pumps history of pumps page',
    );
  });

  it('reads a URL with a malformed escape undecoded rather than losing its words, and has none for what is no URL', () => {
    expect(urlWords('https://example.com/100%-natural/caf%C3%A9')).toBe('100 natural caf C3 A9');
    expect(urlWords('not a url')).toBe('');
  });
});
