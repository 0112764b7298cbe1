import { describe, expect, it } from 'vitest';
import { escapeCitedText, inlineText, unescapeMarkdownText, escapeMarkdownText } from './escape.js';
import { outboundLinkPolicy } from './link-policy.js';
import { renderSourceList } from './source-list.js';

const policy = outboundLinkPolicy();

describe('renderSourceList', () => {
  it('links allowed http(s) URLs, keeps hostile titles inside their link and escapes details and excerpts', () => {
    const lines = renderSourceList(
      [
        {
          title: 'Pumps](javascript:alert(1)) <img src=x onerror=alert(1)> [x',
          url: 'https://example.com/a',
          details: ['score 0.9', null, false],
          excerpt: '<script>alert(1)</script>\n*bold*',
        },
        { title: 'Local', url: 'http://127.0.0.1/admin', details: ['score 0.5'] },
        { title: '', url: 'javascript:alert(1)' },
      ],
      { policy },
    );
    expect(lines).toEqual([
      '[1] [Pumps\\](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt; \\[x](https://example.com/a) — score 0.9',
      '    &lt;script&gt;alert(1)&lt;/script&gt; \\*bold\\*',
      '[2] Local — score 0.5',
      '[3] javascript:alert(1)',
    ]);
  });

  it('numbers or bullets items, cuts excerpts and counts what it left out', () => {
    const items = [1, 2, 3].map((n) => ({
      title: `T${n}`,
      url: `https://example.com/${n}`,
      excerpt: 'word '.repeat(100),
    }));
    const lines = renderSourceList(items, { policy, marker: 'number', limit: 2, excerptChars: 10 });
    expect(lines).toEqual([
      '1. [T1](https://example.com/1)',
      '   word word…',
      '2. [T2](https://example.com/2)',
      '   word word…',
      '… and 1 more',
    ]);
    expect(renderSourceList(items.slice(0, 1), { policy, marker: 'bullet' })[0]).toBe('- [T1](https://example.com/1)');
  });
});

describe('escaped text helpers', () => {
  it('escapeCitedText keeps citations and escapes the rest', () => {
    expect(escapeCitedText('Heat <b>pumps</b> [x](javascript:1) work [1] [12].')).toBe(
      'Heat &lt;b&gt;pumps&lt;/b&gt; \\[x\\](javascript:1) work [1] [12].',
    );
  });

  it('unescapeMarkdownText gives back what escapeMarkdownText was given', () => {
    for (const text of ['a &lt; b & <c> [d](e) *f* _g_ \\h `i`', '# heading\n- item\n1. first'])
      expect(unescapeMarkdownText(escapeMarkdownText(text))).toBe(text);
  });

  it('inlineText puts text on one line, cut and escaped', () => {
    expect(inlineText('a\n\n<b>b</b>   c', 8)).toBe('a &lt;b&gt;b&lt;/…');
  });
});
