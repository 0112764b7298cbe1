import { describe, expect, it } from 'vitest';
import {
  anyWebLink,
  escapeMarkdownText,
  fencedCode,
  markdownImage,
  markdownLink,
  referenceDefinition,
} from './escape.js';
import { outboundLinkPolicy } from './link-policy.js';

const strict = outboundLinkPolicy();

describe('escapeMarkdownText', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['[click](javascript:alert(1))', '\\[click\\](javascript:alert(1))'],
    ['<https://127.0.0.1/admin>', '&lt;https://127.0.0.1/admin&gt;'],
    ['*bold* _em_ `code` ~~gone~~ a|b', '\\*bold\\* \\_em\\_ \\`code\\` \\~\\~gone\\~\\~ a\\|b'],
    ['# Heading\n- item\n+ item\n1. first\n===', '\\# Heading\n\\- item\n\\+ item\n1\\. first\n\\==='],
    ['&lt;b&gt; and AT&T', '&amp;lt;b&amp;gt; and AT&T'],
    ['back\\slash', 'back\\\\slash'],
    ['US$211.9 billion, 3-4 items', 'US$211.9 billion, 3-4 items'],
  ])('%j renders as text', (input, expected) => {
    expect(escapeMarkdownText(input)).toBe(expected);
  });
});

describe('links and images', () => {
  it('links http(s) only, and never an address the policy refuses', () => {
    expect(markdownLink('docs', 'https://example.com/a_(b)', strict)).toBe('[docs](<https://example.com/a_(b)>)');
    expect(markdownLink('docs', 'https://example.com/a', strict)).toBe('[docs](https://example.com/a)');
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'http://127.0.0.1:8080/',
      'http://[::127.0.0.1]/',
      'http://169.254.169.254/latest',
      'http://localhost/',
      'vbscript:x',
    ]) {
      expect(markdownLink('x](javascript:alert(1)) [y', url, strict)).toBe('x\\](javascript:alert(1)) \\[y');
      expect(markdownImage('alt', url, strict)).toBe('');
      expect(referenceDefinition('1', url, strict)).toBeNull();
    }
  });

  it('keeps link text inside its link whatever it holds', () => {
    const link = markdownLink('a](javascript:alert(1)) <b>', 'https://example.com/', anyWebLink);
    expect(link).toBe('[a\\](javascript:alert(1)) &lt;b&gt;](https://example.com/)');
  });

  it('follows allowHosts for private addresses', () => {
    const allowing = outboundLinkPolicy({ allowPrivateNetwork: false, allowHosts: ['127.0.0.1:8080'] });
    expect(markdownLink('ok', 'http://127.0.0.1:8080/page', allowing)).toBe('[ok](http://127.0.0.1:8080/page)');
    expect(markdownLink('no', 'http://127.0.0.1:9090/page', allowing)).toBe('no');
  });
});

describe('fencedCode', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(fencedCode('a ``` b ```` c', 'json')).toBe('`````json\na ``` b ```` c\n`````');
    expect(fencedCode('plain')).toBe('```\nplain\n```');
  });
});
