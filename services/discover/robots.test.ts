import { describe, expect, it } from 'vitest';
import type { RobotsTxt } from '../../core/http/robots-cache.js';
import type { DiscoveryRun } from './discovery-run.js';
import { readRobots } from './robots.js';

/** A run whose robots.txt is the given cache answer; records the errors discovery would list. */
function runWith(robots: RobotsTxt): DiscoveryRun & { recorded: string[] } {
  const recorded: string[] = [];
  return {
    recorded,
    signal: new AbortController().signal,
    robotsTxt: async () => robots,
    recordStatus: (url: string, status: number) => recorded.push(`${url} ${status}`),
    recordError: (url: string) => recorded.push(url),
  } as unknown as DiscoveryRun & { recorded: string[] };
}

describe('readRobots: the site robots.txt as discovery reads it from the outbound client cache', () => {
  it("asks the site's rules only about its own origin's URLs; another origin's are its own rules' to judge", async () => {
    const asked: string[] = [];
    const run = runWith({
      status: 200,
      rules: { text: '', count: 0, sitemaps: ['https://example.com/sitemap.xml', 'https://example.com/sitemap.xml'] },
      check: async (urls) => {
        asked.push(...urls);
        return urls.map((url) => !url.includes('/private/'));
      },
    });
    const robots = await readRobots(run, 'https://example.com');
    expect(robots.found).toBe(true);
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml']);
    const urls = ['https://example.com/private/a', 'http://www.example.com/private/b', 'https://example.com/c'];
    expect(
      await robots.allowed(
        urls.map((url) => new URL(url)),
        new AbortController().signal,
      ),
    ).toEqual([false, true, true]);
    expect(asked).toEqual(['https://example.com/private/a', 'https://example.com/c']);
  });

  it('lists a failed fetch as an error and goes on without rules', async () => {
    const run = runWith({ status: null, failure: new Error('connection reset'), rules: null, check: null });
    const robots = await readRobots(run, 'https://example.com');
    expect(robots).toMatchObject({ found: false, sitemaps: [] });
    expect(run.recorded).toEqual(['https://example.com/robots.txt']);
  });
});
