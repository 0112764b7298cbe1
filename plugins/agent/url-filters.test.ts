import { describe, expect, it } from 'vitest';
import { regexTest } from '../../services/extract/regex-test.js';
import { linkDecider } from './url-filters.js';

const base = new URL('https://www.example.com/docs/');
const inThread = async (texts: string[], patterns: Array<{ source: string; flags: string }>) =>
  regexTest(texts, patterns);
const decide = (filters: Parameters<typeof linkDecider>[0], ...urls: string[]) =>
  linkDecider(
    filters,
    base,
    inThread,
  )(
    urls.map((u) => new URL(u)),
    new AbortController().signal,
  );

describe('crawl link decisions', () => {
  it("follows the start URL's site (www. aside), keeps other sites unfollowed only with allow_external", async () => {
    const urls = [
      'https://example.com/a',
      'https://www.example.com/b',
      'https://other.org/c',
      'https://docs.example.com/d',
    ];
    expect(await decide({ allow_external: true }, ...urls)).toEqual(['follow', 'follow', 'leaf', 'leaf']);
    expect(await decide({ allow_external: false }, ...urls)).toEqual(['follow', 'follow', 'drop', 'drop']);
  });

  it('compares sites by the one rule (services/web-search/hosts.ts): a numbered www label and the scheme aside, the port not', async () => {
    const urls = ['https://www2.example.com/a', 'http://example.com/b', 'https://example.com:8443/c'];
    expect(await decide({ allow_external: false }, ...urls)).toEqual(['follow', 'follow', 'drop']);
  });

  it('applies path patterns to path and query, domain patterns to the host name; select_domains puts hosts in scope', async () => {
    const urls = [
      'https://example.com/docs/intro',
      'https://example.com/blog/post',
      'https://example.com/docs/old?v=1',
      'https://docs.example.com/api',
    ];
    expect(await decide({ allow_external: true, select_paths: ['^/docs/'], exclude_paths: ['v=1'] }, ...urls)).toEqual([
      'follow',
      'drop',
      'drop',
      'drop',
    ]);
    expect(await decide({ allow_external: false, select_domains: ['^docs\\.example\\.com$'] }, ...urls)).toEqual([
      'drop',
      'drop',
      'drop',
      'follow',
    ]);
    expect(await decide({ allow_external: true, exclude_domains: ['^docs\\.'] }, ...urls)).toEqual([
      'follow',
      'follow',
      'follow',
      'drop',
    ]);
  });

  it('stops a pattern that backtracks catastrophically', () => {
    expect(() => regexTest([`/${'a'.repeat(40)}!`], [{ source: '^/(a+)+$', flags: '' }], 200)).toThrow(
      /took longer than 200 ms/,
    );
  });
});
