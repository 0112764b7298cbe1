import { describe, expect, it } from 'vitest';
import { regexTest } from '../../services/extract/regex-test.js';
import { crawlDecider, type CrawlScope } from './crawl-scope.js';

const scope = (over: Partial<CrawlScope> = {}): CrawlScope => ({
  includePaths: [],
  excludePaths: [],
  regexOnFullURL: false,
  crawlEntireDomain: false,
  allowSubdomains: false,
  allowExternalLinks: false,
  ignoreQueryParameters: false,
  ...over,
});

// The pool's matcher, run here directly: the decider only hands it texts and patterns.
const tester = async (texts: string[], patterns: Parameters<typeof regexTest>[1]) => regexTest(texts, patterns);
const signal = new AbortController().signal;
const base = new URL('https://docs.example.com/guide/');

async function decisions(over: Partial<CrawlScope>, urls: string[]) {
  return crawlDecider(
    scope(over),
    base,
    tester,
  )(
    urls.map((u) => new URL(u)),
    signal,
  );
}

describe('crawlDecider', () => {
  it("keeps the start URL's children unless crawlEntireDomain; other hosts only when allowed", async () => {
    const urls = [
      'https://docs.example.com/guide/setup',
      'https://www.docs.example.com/guide/more',
      'https://docs.example.com/blog/post',
      'https://api.docs.example.com/guide/x',
      'https://elsewhere.example/guide/x',
    ];
    expect(await decisions({}, urls)).toEqual(['follow', 'follow', 'drop', 'drop', 'drop']);
    expect(await decisions({ crawlEntireDomain: true }, urls)).toEqual(['follow', 'follow', 'follow', 'drop', 'drop']);
    expect(await decisions({ allowSubdomains: true }, urls)).toEqual(['follow', 'follow', 'drop', 'follow', 'drop']);
    expect(await decisions({ allowExternalLinks: true }, urls)).toEqual([
      'follow',
      'follow',
      'drop',
      'follow',
      'follow',
    ]);
  });

  it('compares hosts by the one host rule: a numbered www label and the case are no other host', async () => {
    const urls = ['https://WWW2.docs.example.com/guide/two', 'https://www2.api.docs.example.com/guide/x'];
    expect(await decisions({}, urls)).toEqual(['follow', 'drop']);
    expect(await decisions({ allowSubdomains: true }, urls)).toEqual(['follow', 'follow']);
  });

  it('applies excludePaths, then includePaths, on the path or the whole URL; one URL per path with ignoreQueryParameters', async () => {
    const urls = [
      'https://docs.example.com/guide/a?x=1',
      'https://docs.example.com/guide/b',
      'https://docs.example.com/guide/a?x=2',
    ];
    expect(await decisions({ includePaths: ['/a$'] }, urls)).toEqual(['follow', 'drop', 'follow']);
    expect(await decisions({ excludePaths: ['/a'] }, urls)).toEqual(['drop', 'follow', 'drop']);
    expect(await decisions({ includePaths: ['x=1'] }, urls)).toEqual(['drop', 'drop', 'drop']);
    expect(await decisions({ includePaths: ['x=1'], regexOnFullURL: true }, urls)).toEqual(['follow', 'drop', 'drop']);
    expect(await decisions({ ignoreQueryParameters: true }, urls)).toEqual(['follow', 'follow', 'drop']);
  });

  it("v1's maxDepth bounds the path's depth below the start URL's", async () => {
    const urls = [
      'https://docs.example.com/guide/a',
      'https://docs.example.com/guide/a/b',
      'https://docs.example.com/guide/a/b/c',
    ];
    // The start URL /guide/ is one segment deep: /guide/a is 1 beyond it, /guide/a/b/c 3.
    expect(await decisions({ maxPathDepth: 1 }, urls)).toEqual(['follow', 'drop', 'drop']);
    expect(await decisions({ maxPathDepth: 2 }, urls)).toEqual(['follow', 'follow', 'drop']);
    expect(await decisions({}, urls)).toEqual(['follow', 'follow', 'follow']);
  });

  it('deduplicateSimilarURLs: www., http/https, a trailing slash and index pages are one URL; queries are not', async () => {
    const urls = [
      'https://docs.example.com/guide/a',
      'http://www.docs.example.com/guide/a/',
      'https://docs.example.com/guide/a/index.php',
      'https://docs.example.com/guide/a?page=2',
      'https://docs.example.com/guide/b/index.html',
      'https://docs.example.com/guide/b',
    ];
    expect(await decisions({ deduplicateSimilarURLs: true }, urls)).toEqual([
      'follow',
      'drop',
      'drop',
      'follow',
      'follow',
      'drop',
    ]);
    expect(await decisions({}, urls)).toEqual(urls.map(() => 'follow'));
  });
});
