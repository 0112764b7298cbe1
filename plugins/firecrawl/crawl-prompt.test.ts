import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { checkedOptions } from './crawl-prompt.js';

describe('checkedOptions', () => {
  it("keeps the model's valid crawl options as the request schemas read them, and drops the rest", () => {
    expect(
      checkedOptions({
        includePaths: ['^/blog/.*'],
        excludePaths: ['^/blog/tag/', '[broken'],
        maxDiscoveryDepth: 2,
        limit: 0,
        sitemap: 'everything',
        crawlEntireDomain: 'yes',
        allowSubdomains: true,
        delay: 1.5,
        deduplicateSimilarURLs: null,
        webhook: 'https://evil.example/hook',
        scrapeOptions: { formats: ['rawHtml'] },
      }),
    ).toEqual({ includePaths: ['^/blog/.*'], maxDiscoveryDepth: 2, allowSubdomains: true, delay: 1.5 });
  });

  it('refuses an answer that is no JSON object, naming the prompt', () => {
    for (const answer of [null, 'crawl the blog', ['^/blog/']]) {
      expect(() => checkedOptions(answer)).toThrow(AppError);
      expect(() => checkedOptions(answer)).toThrow(/^prompt:/);
    }
  });
});
