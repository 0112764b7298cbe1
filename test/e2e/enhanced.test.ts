/** The Enhanced API over HTTP against the sandbox web. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web);
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('POST /api/v1/enhanced/discover-urls', () => {
  beforeAll(() => {
    web.setRobots(`User-agent: *\nDisallow: /site-a/private\nSitemap: ${web.url}/sitemap.xml\n`);
    web.addPage(
      '/sitemap.xml',
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${web.url}/site-a/news/one</loc><lastmod>2026-10-01</lastmod></url><url><loc>${web.url}/site-a/news/two</loc></url></urlset>`,
      { contentType: 'application/xml' },
    );
    web.addPage('/site-a/', `<html><body><a href="/site-a/about">About</a> <a href="/site-a/private/admin">Admin</a> <a href="https://elsewhere.example/x">Out</a> <a href="/site-a/news/one">One</a></body></html>`);
    web.addPage('/site-a/about', `<html><body><a href="/site-a/team">Team</a></body></html>`);
    web.addPage('/site-a/team', `<html><body>team</body></html>`);
  });

  it('combines sitemaps and in-site links, respects robots.txt, and says where each URL came from', async () => {
    const res = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: `${web.url}/site-a/` });
    expect(res.status).toBe(200);
    const byUrl = new Map(res.body.urls.map((u: any) => [u.url.replace(web.url, ''), u]));
    expect(byUrl.get('/site-a/news/one')).toMatchObject({ source: 'sitemap', lastmod: '2026-10-01' });
    expect(byUrl.get('/site-a/news/two')).toMatchObject({ source: 'sitemap' });
    expect(byUrl.get('/site-a/about')).toMatchObject({ source: 'link', depth: 1 });
    expect(byUrl.get('/site-a/team')).toMatchObject({ source: 'link', depth: 2 });
    expect(byUrl.has('/site-a/private/admin')).toBe(false);
    expect([...byUrl.keys()].some((u) => String(u).includes('elsewhere.example'))).toBe(false);
    expect(res.body.robots.found).toBe(true);
    expect(res.body.sitemaps).toEqual([`${web.url}/sitemap.xml`]);
  });

  it('filters with a glob pattern and stops at max_urls', async () => {
    const news = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: `${web.url}/site-a/`, pattern: '/site-a/news/*' });
    expect(news.body.urls.map((u: any) => u.url.replace(web.url, '')).sort()).toEqual(['/site-a/news/one', '/site-a/news/two']);
    const one = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: `${web.url}/site-a/`, max_urls: 1 });
    expect(one.body.urls).toHaveLength(1);
    expect(one.body.truncated).toBe(true);
  });

  it('rejects bad input and refuses private addresses', async () => {
    const badUrl = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: 'not a url' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.message).toContain('base_url');
    const tooMany = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: web.url, max_urls: 0 });
    expect(tooMany.status).toBe(400);
    const badPattern = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: `${web.url}/site-a/`, pattern: '{unclosed' });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.error.message).toContain('pattern');
    const refused = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: 'http://127.0.0.1:9/' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN_ADDRESS');
  });
});
