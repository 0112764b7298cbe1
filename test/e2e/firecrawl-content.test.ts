/**
 * Scrape content selection through @mendable/firecrawl-js 4.x (v2 and v1 form) against a local site:
 * `html` is the main content's markup and `rawHtml` the whole page, `onlyMainContent: false` gives the
 * whole page's markdown, `includeTags`/`excludeTags` are CSS selectors applied before conversion, and a
 * selector that is not CSS is a 400 naming it.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

const PAGE =
  '<!doctype html><html lang="en"><head><title>Granite benches</title></head><body>' +
  '<nav><a href="/">Home</a> <a href="/stones">Stone index of the navigation bar</a></nav>' +
  '<main><article><h1>Granite benches</h1>' +
  '<p>Granite is cut in benches of three metres with wire saws, then split with wedges along the grain.</p>' +
  '<p>The benches are worked from the top of the quarry downwards, each one a little narrower.</p>' +
  '<aside class="advert">Buy our polishing paste today</aside>' +
  '<p>Blocks leave the quarry on rail wagons and are sawn into slabs at the mill near the river.</p>' +
  '</article></main><footer id="legal">Footer text of the quarry company</footer></body></html>';

beforeAll(async () => {
  web = await startSandboxWeb();
  web.addPage('/granite', PAGE, { contentType: 'text/html; charset=utf-8' });
  quarry = await startQuarry(web);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const url = () => `${web.url}/granite`;

describe('firecrawl-js v2 content selection', () => {
  it('html is the main content, rawHtml the whole page', async () => {
    const doc = await firecrawl.scrape(url(), { formats: ['markdown', 'html', 'rawHtml'], maxAge: 0 });
    expect(doc.html).toContain('wire saws');
    expect(doc.html).not.toContain('navigation bar');
    expect(doc.html).not.toContain('<body');
    expect(doc.rawHtml).toContain('navigation bar');
    expect(doc.markdown).not.toContain('Footer text');
    expect(doc.warning ?? '').not.toContain('onlyMainContent');
  });

  it('onlyMainContent false gives the whole page as markdown', async () => {
    const doc = await firecrawl.scrape(url(), { formats: ['markdown'], onlyMainContent: false, maxAge: 0 });
    expect(doc.markdown).toContain('wire saws');
    expect(doc.markdown).toContain('navigation bar');
    expect(doc.markdown).toContain('Footer text');
  });

  it('includeTags keeps only what the selectors match; excludeTags removes before conversion', async () => {
    const doc = await firecrawl.scrape(url(), {
      formats: ['markdown', 'html'],
      includeTags: ['article', '#legal'],
      excludeTags: ['.advert'],
      maxAge: 0,
    });
    expect(doc.markdown).toContain('rail wagons');
    expect(doc.markdown).toContain('Footer text');
    expect(doc.markdown).not.toContain('navigation bar');
    expect(doc.markdown).not.toContain('polishing paste');
    expect(doc.html).not.toContain('polishing paste');
  });

  it('a selector that is not CSS is a 400 naming it', async () => {
    const response = await quarry.post('/firecrawl/v2/scrape', { url: url(), excludeTags: ['p[[['], maxAge: 0 });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.error).toContain('p[[[');
  });
});

describe('firecrawl-js v1 content selection', () => {
  it('onlyMainContent false and excludeTags in v1 form', async () => {
    const result = await v1.scrapeUrl(url(), {
      formats: ['markdown', 'html'],
      onlyMainContent: false,
      excludeTags: ['nav'],
    });
    if (!result.success) throw new Error(result.error);
    expect(result.markdown).toContain('Footer text');
    expect(result.markdown).not.toContain('navigation bar');
    expect(result.html).toContain('Footer text');
  });
});
