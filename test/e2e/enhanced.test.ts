/** The Enhanced API over HTTP against the sandbox web. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaPage } from '../sandbox/fixture-pages.js';
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
    web.addPage(
      '/site-a/',
      `<html><body><a href="/site-a/about">About</a> <a href="/site-a/private/admin">Admin</a> <a href="https://elsewhere.example/x">Out</a> <a href="/site-a/news/one">One</a></body></html>`,
    );
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
    const news = await quarry.post('/api/v1/enhanced/discover-urls', {
      base_url: `${web.url}/site-a/`,
      pattern: '/site-a/news/*',
    });
    expect(news.body.urls.map((u: any) => u.url.replace(web.url, '')).sort()).toEqual([
      '/site-a/news/one',
      '/site-a/news/two',
    ]);
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
    const badPattern = await quarry.post('/api/v1/enhanced/discover-urls', {
      base_url: `${web.url}/site-a/`,
      pattern: '{unclosed',
    });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.error.message).toContain('pattern');
    const refused = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: 'http://127.0.0.1:9/' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN_ADDRESS');
  });
});

describe('POST /api/v1/enhanced/chunk-content', () => {
  const text =
    '# Guide\n\nIntro paragraph about the guide.\n\n## Install 📦\n\nRun the installer. Then restart the ' +
    'machine.\n\n## Use\n\n' +
    'Open the app and search. '.repeat(40);

  it('serves every strategy with exact code-point offsets and token counts', async () => {
    for (const strategy of ['fixed', 'sentence', 'paragraph', 'recursive', 'markdown', 'semantic', 'auto']) {
      const res = await quarry.post('/api/v1/enhanced/chunk-content', { text, strategy, max_tokens: 64 });
      expect(res.status, strategy).toBe(200);
      expect(res.body.tokenizer).toMatch(/^cl100k_base/);
      expect(res.body.total_chunks).toBe(res.body.chunks.length);
      const points = [...text];
      for (const chunk of res.body.chunks) {
        expect(points.slice(chunk.start, chunk.end).join(''), strategy).toBe(chunk.text);
        expect(chunk.tokens).toBeLessThanOrEqual(64);
      }
    }
    const auto = await quarry.post('/api/v1/enhanced/chunk-content', { text });
    expect(auto.body.strategy).toBe('auto');
    expect(auto.body.strategy_used).toBe('markdown');
    expect(auto.body.chunks.find((c: any) => c.text.includes('Run the installer')).heading_path).toEqual([
      'Guide',
      'Install 📦',
    ]);
    const semantic = await quarry.post('/api/v1/enhanced/chunk-content', { text, strategy: 'semantic' });
    expect(semantic.body.embedding_model).toBe('quarry/glove-static-100d');
  });

  it('rejects unknown strategies and inconsistent budgets', async () => {
    const unknown = await quarry.post('/api/v1/enhanced/chunk-content', { text: 'x', strategy: 'by-magic' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/strategy/);
    const overlap = await quarry.post('/api/v1/enhanced/chunk-content', {
      text: 'x',
      max_tokens: 32,
      overlap_tokens: 32,
    });
    expect(overlap.status).toBe(400);
    expect(overlap.body.error.message).toMatch(/overlap_tokens must be smaller than max_tokens/);
    expect((await quarry.post('/api/v1/enhanced/chunk-content', { text: '' })).status).toBe(400);
  });
});

describe('POST /api/v1/enhanced/extract-tables', () => {
  const html = `<html><body><table class="layout"><tr><td><nav><a href="/a">A</a></nav></td></tr></table>
    <table><caption>Prices</caption><thead><tr><th rowspan="2">Item</th><th colspan="2">Cost</th></tr><tr><th>2024</th><th>2025</th></tr></thead>
    <tbody><tr><td><a href="/tea">Tea</a></td><td>3</td><td>4</td></tr><tr><td>Coffee</td><td colspan="2">5</td></tr></tbody></table></body></html>`;

  it('returns headers and rows with spans expanded and links resolved', async () => {
    const res = await quarry.post('/api/v1/enhanced/extract-tables', {
      html_content: html,
      base_url: 'https://shop.example/menu/',
    });
    expect(res.status).toBe(200);
    expect(res.body.total_tables).toBe(1);
    const table = res.body.tables[0];
    expect(table).toMatchObject({
      index: 1,
      caption: 'Prices',
      headers: ['Item', 'Cost / 2024', 'Cost / 2025'],
      rows: [
        ['Tea', '3', '4'],
        ['Coffee', '5', '5'],
      ],
    });
    expect(table.links).toEqual([{ row: 2, column: 0, text: 'Tea', url: 'https://shop.example/tea' }]);
    const all = await quarry.post('/api/v1/enhanced/extract-tables', { html_content: html, strategy: 'all' });
    expect(all.body.tables.map((t: any) => t.is_layout)).toEqual([true, false]);
  });

  it('rejects unknown strategies and relative base URLs', async () => {
    expect(
      (await quarry.post('/api/v1/enhanced/extract-tables', { html_content: html, strategy: 'magic' })).status,
    ).toBe(400);
    const base = await quarry.post('/api/v1/enhanced/extract-tables', { html_content: html, base_url: '/menu' });
    expect(base.status).toBe(400);
    expect(base.body.error.message).toMatch(/base_url/);
  });
});

describe('GET /api/v1/enhanced/features and /performance', () => {
  it('lists every enhanced option with whether it is available here', async () => {
    const res = await quarry.get('/api/v1/enhanced/features');
    expect(res.status).toBe(200);
    const features = res.body.features;
    const expected = [
      ...['none', 'cosine', 'json_css', 'regex', 'llm'].map((s) => `enhanced.search.extraction_strategy.${s}`),
      ...['none', 'pruning', 'bm25', 'llm'].map((f) => `enhanced.search.content_filter.${f}`),
      'enhanced.search.markdown_generation',
      'enhanced.search.adaptive_crawling',
      'enhanced.search.virtual_scrolling',
      'enhanced.search.link_analysis',
      'enhanced.scrape.javascript_rendering',
      'enhanced.scrape.screenshot',
      'enhanced.scrape.pdf',
      ...['load', 'domcontentloaded', 'networkidle0', 'networkidle2'].map((w) => `enhanced.scrape.wait_until.${w}`),
      ...['enabled', 'read_only', 'write_only', 'bypass', 'disabled'].map((m) => `enhanced.scrape.cache_mode.${m}`),
      'enhanced.chunk_content.semantic',
      'enhanced.extract_tables.auto',
      'enhanced.discover_urls',
    ];
    for (const name of expected)
      expect(features[name], name).toMatchObject({ available: expect.any(Boolean), detail: expect.any(String) });
    // No model is configured in the harness: the llm options say so and what to do.
    expect(features['enhanced.search.extraction_strategy.llm']).toMatchObject({
      available: false,
      detail: expect.stringMatching(/needs a language model/),
    });
    expect(features['enhanced.search.extraction_strategy.regex'].available).toBe(true);
    expect(features['enhanced.scrape.screenshot'].available).toBe(features.browser.available);
  });

  it("reports extraction's own figures: pages, pages/s and failure reasons", async () => {
    web.addPage('/perf/blocked', captchaPage());
    web.addPage(
      '/perf/article',
      `<html><head><title>Perf article</title></head><body><article><h1>Perf</h1>${('<p>Some measured words about ' + 'extraction speed and quality here.</p>').repeat(10)}</article></body></html>`,
    );
    const scraped = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [`${web.url}/perf/article`, `${web.url}/perf/blocked`],
      cache_mode: 'bypass',
    });
    expect(scraped.status).toBe(200);
    const res = await quarry.get('/api/v1/enhanced/performance');
    expect(res.status).toBe(200);
    const extraction = res.body.runtime.extraction;
    expect(extraction.pages).toBeGreaterThanOrEqual(2);
    expect(extraction.succeeded).toBeGreaterThanOrEqual(1);
    expect(extraction.failure_reasons.captcha).toBeGreaterThanOrEqual(1);
    expect(extraction.pages_per_second_last_minute).toBeGreaterThan(0);
    expect(extraction.mean_ms_per_page).toBeGreaterThan(0);
  });
});
