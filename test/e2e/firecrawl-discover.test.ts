/**
 * firecrawl-js (v2 and v1) map and search against Quarry's Firecrawl mount: map
 * from the one discovery service (robots.txt obeyed: a disallowed section is
 * neither listed nor requested), search on local engines (web and news), with
 * scrapeOptions reading each web result as a Document.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePagePath } from '../sandbox/firecrawl-site.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { startFirecrawlWeb, type FirecrawlWeb } from './firecrawl-web.js';
import { TEST_KEY, type RunningQuarry } from './harness.js';

let site: FirecrawlWeb;
let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

const NEWS_ENGINES = [
  'bing_news',
  'brave_news',
  'duckduckgo_news',
  'google_news',
  'guardian',
  'hackernews',
  'tagesschau',
  'wikinews',
  'yahoo_news',
  'yahoo_finance',
];

beforeAll(async () => {
  site = await startFirecrawlWeb({
    pages: 6,
    privatePages: 2,
    listed: [1, 2, 3],
    engines: [
      ['local_web', ['general']],
      ['local_news', ['news']],
    ],
    config: { engines: Object.fromEntries(NEWS_ENGINES.map((id) => [id, { enabled: false }])) },
  });
  ({ web, quarry } = site);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await site?.close();
});

describe('firecrawl-js map', () => {
  it("v2: the site's URLs as link objects, a robots-disallowed section neither listed nor requested", async () => {
    const result = await firecrawl.map(`${web.url}/fc/`);
    const urls = result.links.map((link) => link.url);
    for (let i = 0; i < 6; i++) expect(urls).toContain(`${web.url}${sitePagePath(i)}`);
    expect(urls.some((url) => url.includes('/fc/private/'))).toBe(false);
    expect(web.requestLog().filter((r) => r.path.startsWith('/fc/private/'))).toEqual([]);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('v2: search keeps matching URLs, limit cuts', async () => {
    const matching = await firecrawl.map(`${web.url}/fc/`, { search: 'page-5' });
    expect(matching.links.map((link) => link.url)).toEqual([`${web.url}${sitePagePath(5)}`]);
    const two = await firecrawl.map(`${web.url}/fc/`, { limit: 2 });
    expect(two.links).toHaveLength(2);
  });

  it('v1: links as strings', async () => {
    const result = await v1.mapUrl(`${web.url}/fc/`, { limit: 3 });
    expect(result.success).toBe(true);
    const links = (result as { links: unknown[] }).links;
    expect(links).toHaveLength(3);
    for (const link of links) expect(typeof link).toBe('string');
  });
});

describe('firecrawl-js search', () => {
  it('v2: web results grouped by source; news from the news engines', async () => {
    const result = await firecrawl.search('diamond wire slabs', { limit: 3, sources: ['web', 'news'] });
    expect(result.web?.length).toBeGreaterThan(0);
    const top = result.web![0] as { url: string; title: string; description: string };
    expect(top.url).toMatch(/\/fc\/page-[123]$/);
    expect(top.title).toMatch(/Quarry stone/);
    expect(result.news?.length).toBeGreaterThan(0);
    expect((result.news![0] as { url: string }).url).toMatch(/\/fc\/page-/);
  });

  it('v2: scrapeOptions reads every web result as a Document', async () => {
    const result = await firecrawl.search('diamond wire slabs', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    expect(result.web).toHaveLength(2);
    for (const doc of result.web as Array<{
      markdown?: string;
      metadata?: { sourceURL?: string; statusCode?: number };
    }>) {
      expect(doc.markdown).toContain('diamond wire');
      expect(doc.metadata?.statusCode).toBe(200);
    }
  });

  it('v1: a flat data array of web results', async () => {
    const result = await v1.search('diamond wire slabs', { limit: 2 });
    expect(result.success).toBe(true);
    expect(Array.isArray(result.data)).toBe(true);
    expect(result.data.length).toBeGreaterThan(0);
    expect(result.data[0]!.url).toMatch(/\/fc\/page-/);
  });

  it('an empty query is 400 naming the field', async () => {
    const response = await quarry.post('/firecrawl/v2/search', { query: '  ', origin: 'test' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(response.body.error).toMatch(/query/);
  });
});
