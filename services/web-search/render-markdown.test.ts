import { describe, expect, it } from 'vitest';
import { renderSearchMarkdown, type MarkdownSearchAnswer, type MarkdownSearchResult } from './render-markdown.js';

function answer(
  results: MarkdownSearchResult[],
  meta: Partial<MarkdownSearchAnswer['search_metadata']> = {},
): MarkdownSearchAnswer {
  return {
    query: 'rust async runtime',
    results,
    search_metadata: {
      engines_succeeded: ['duckduckgo', 'brave'],
      engines_failed: [],
      results_returned: results.length,
      search_time_ms: 812,
      ...meta,
    },
  };
}

function item(overrides: Partial<MarkdownSearchResult> = {}): MarkdownSearchResult {
  return {
    rank: 1,
    title: 'Tokio',
    url: 'https://tokio.rs/',
    snippet: 'An asynchronous runtime.',
    engine: 'duckduckgo',
    score: 1,
    ...overrides,
  };
}

describe('renderSearchMarkdown', () => {
  it('renders the heading, the summary and one section per result', () => {
    const md = renderSearchMarkdown(
      answer(
        [
          item(),
          item({
            rank: 2,
            title: 'async-std',
            url: 'https://async.rs/',
            engine: 'brave',
            engines: ['brave', 'duckduckgo'],
            score: 0.4567,
          }),
        ],
        {
          engines_failed: ['google'],
          engine_errors: { google: { message: 'CAPTCHA page' } },
        },
      ),
    );
    expect(md).toContain('# Search results: rust async runtime\n');
    expect(md).toContain('2 results from engines duckduckgo, brave; failed: google (CAPTCHA page) — 812 ms.');
    expect(md).toContain('## 1. [Tokio](https://tokio.rs/)');
    expect(md).toContain('*duckduckgo · score 1.000*');
    expect(md).toContain('## 2. [async-std](https://async.rs/)');
    expect(md).toContain('*brave, duckduckgo · score 0.457*');
    expect(md).toContain('> An asynchronous runtime.');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('says so when there are no results', () => {
    const md = renderSearchMarkdown(answer([], { engines_succeeded: [], engines_failed: ['brave'] }));
    expect(md).toContain('0 results from no engine; failed: brave');
    expect(md).toContain('No results.');
  });

  it('escapes brackets and other markup in titles so the link never breaks', () => {
    const md = renderSearchMarkdown(
      answer([
        item({ title: 'Arrays [a] and ]links[ *bold* `code`\nsecond line', url: 'https://example.com/wiki/Foo_(bar)' }),
      ]),
    );
    const heading = md.split('\n').find((line) => line.startsWith('## 1.'))!;
    expect(heading).toBe(
      '## 1. [Arrays \\[a\\] and \\]links\\[ \\*bold\\* \\`code\\` second line](<https://example.com/wiki/Foo_(bar)>)',
    );
  });

  it('escapes snippets so they stay plain text', () => {
    const md = renderSearchMarkdown(
      answer([
        item({ snippet: '# Title-like\nsnippet with [brackets] and *stars*' }),
        item({ rank: 2, snippet: '1. first' }),
      ]),
    );
    expect(md).toContain('> \\# Title-like snippet with \\[brackets\\] and \\*stars\\*');
    expect(md).toContain('> 1\\. first');
  });

  it('keeps URLs with spaces or angle brackets inside the link destination, percent-encoded', () => {
    const md = renderSearchMarkdown(answer([item({ url: 'https://example.com/a b<c>' })]));
    expect(md).toContain('(https://example.com/a%20b%3Cc%3E)');
  });

  it('falls back to the URL when the title is empty', () => {
    expect(renderSearchMarkdown(answer([item({ title: '  ' })]))).toContain(
      '## 1. [https://tokio.rs/](https://tokio.rs/)',
    );
  });

  it('includes scraped markdown, preferring it over text, with headings demoted below the result', () => {
    const md = renderSearchMarkdown(
      answer([
        item({
          scraped_content: {
            text: 'plain text version',
            markdown: '# Tokio\n\nBuild reliable apps.\n\n```sh\n# not a heading\n```\n\n## Install',
            extraction_success: true,
            word_count: 6,
          },
        }),
      ]),
    );
    expect(md).toContain('### Content (6 words)');
    expect(md).toContain('#### Tokio\n\nBuild reliable apps.');
    expect(md).toContain('```sh\n# not a heading\n```');
    expect(md).toContain('##### Install');
    expect(md).not.toContain('plain text version');
  });

  it('uses the text when there is no markdown, and notes failed extractions', () => {
    const md = renderSearchMarkdown(
      answer([
        item({ scraped_content: { text: 'plain text version', extraction_success: true, word_count: 3 } }),
        item({
          rank: 2,
          url: 'https://x.example/',
          scraped_content: { text: '', extraction_success: false, word_count: 0, failure_reason: 'HTTP 403' },
        }),
      ]),
    );
    expect(md).toContain('plain text version');
    expect(md).toContain('*Content not extracted: HTTP 403.*');
  });

  it('truncates content per result with an explicit marker', () => {
    const long = 'word '.repeat(2000).trim(); // 9999 characters
    const md = renderSearchMarkdown(
      answer([item({ scraped_content: { text: long, extraction_success: true, word_count: 2000 } })]),
    );
    expect(md).toContain('[… truncated]');
    const content = md.slice(md.indexOf('### Content'), md.indexOf('[… truncated]'));
    expect(content.length).toBeLessThan(4100);
    expect(content).not.toMatch(/wor\n/); // cut at a word boundary
    expect(md).toMatch(/\(\d+ of 9999 characters shown\)/);

    const short = renderSearchMarkdown(
      answer([item({ scraped_content: { text: long, extraction_success: true, word_count: 2000 } })]),
      { maxContentChars: 100 },
    );
    expect(short.slice(short.indexOf('### Content'), short.indexOf('[… truncated]')).length).toBeLessThan(150);

    const whole = renderSearchMarkdown(
      answer([item({ scraped_content: { text: long, extraction_success: true, word_count: 2000 } })]),
      { maxContentChars: Infinity },
    );
    expect(whole).not.toContain('[… truncated]');
    expect(whole).toContain(long);
  });

  it('closes a code fence that the cut leaves open', () => {
    const markdown = `Intro\n\n\`\`\`js\n${'console.log(1);\n'.repeat(100)}\`\`\`\n\nAfter.`;
    const md = renderSearchMarkdown(
      answer([item({ scraped_content: { text: '', markdown, extraction_success: true, word_count: 100 } })]),
      { maxContentChars: 200 },
    );
    const fences = md.match(/^```/gm) ?? [];
    expect(fences.length % 2).toBe(0);
    expect(md.indexOf('```\n\n[… truncated]')).toBeGreaterThan(0);
  });
});
