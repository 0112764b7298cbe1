/**
 * firecrawl-js (v2 and v1) crawl options with their documented effect, on a local site: the site's sitemap adds
 * pages no link reaches (`sitemap` include, skip, only; v1's ignoreSitemap), URLs that differ only in a trailing
 * slash or index.html are one page unless `deduplicateSimilarURLs: false`, and `delay` reads one page at a time
 * that many seconds apart (arrival times counted at the site). A `prompt` (on the crawl, and on
 * /crawl/params-preview) goes to a scripted local model; its options are checked field by field, the caller's
 * own options win, and without a model both answer a 400 naming the setting.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import {
  chatCompletionReply,
  startScriptedServer,
  type ScriptedServer,
} from '../../services/llm/fixtures/scripted-server.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let llm: ScriptedServer;
let quarry: RunningQuarry;
let withModel: RunningQuarry;
let firecrawl: Firecrawl;
let prompted: Firecrawl;
let v1: FirecrawlAppV1;

const html = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} is a page of the crawl options site, with enough words in it to count as content.</p>` +
  `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</main></body></html>`;
const HTML = { contentType: 'text/html; charset=utf-8' };

const sourceUrls = (docs: Array<{ metadata?: { sourceURL?: string } }>): string[] =>
  docs.map((doc) => doc.metadata?.sourceURL ?? '').sort();

beforeAll(async () => {
  web = await startSandboxWeb();
  // /sm/: two linked pages, two more only in the sitemap, and a sitemap URL outside /sm/ that the path scope drops.
  web.addPage('/sm/', html('Sitemap index', ['/sm/linked-1', '/sm/linked-2']), HTML);
  for (const name of ['linked-1', 'linked-2', 'orphan-1', 'orphan-2'])
    web.addPage(`/sm/${name}`, html(`Page ${name}`), HTML);
  web.addPage('/elsewhere/listed', html('Listed elsewhere'), HTML);
  const sitemap =
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
    ['/sm/linked-1', '/sm/orphan-1', '/sm/orphan-2', '/elsewhere/listed']
      .map((path) => `<url><loc>${web.url}${path}</loc></url>`)
      .join('') +
    '</urlset>';
  web.addPage('/site-map.xml', sitemap, { contentType: 'application/xml' });
  web.setRobots(`User-agent: *\nAllow: /\nSitemap: ${web.url}/site-map.xml\n`);
  // /dd/: one page under three spellings.
  web.addPage('/dd/', html('Dedup index', ['/dd/stone/', '/dd/stone/index.html', '/dd/stone']), HTML);
  for (const path of ['/dd/stone/', '/dd/stone/index.html', '/dd/stone']) web.addPage(path, html('Stone'), HTML);
  // /dl/: three pages for the pacing check.
  web.addPage('/dl/', html('Delay index', ['/dl/a', '/dl/b', '/dl/c']), HTML);
  for (const name of ['a', 'b', 'c']) web.addPage(`/dl/${name}`, html(`Delay ${name}`), HTML);
  quarry = await startQuarry(web);
  llm = await startScriptedServer();
  const model = { provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, model: 'scripted-7b', maxRetries: 0 };
  withModel = await startQuarry(web, { llm: { fast: model } } as ConfigInput);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
  prompted = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${withModel.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await withModel?.close();
  await llm?.close();
  await web?.close();
});

const at = (...paths: string[]) => paths.map((path) => `${web.url}${path}`).sort();

describe('sitemap', () => {
  it('include (the default): the sitemap adds the pages no link reaches, within the crawl scope', async () => {
    const job = await firecrawl.crawl(`${web.url}/sm/`, { pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(sourceUrls(job.data)).toEqual(at('/sm/', '/sm/linked-1', '/sm/linked-2', '/sm/orphan-1', '/sm/orphan-2'));
    expect(web.requestLog().some((r) => r.path === '/elsewhere/listed')).toBe(false);
  }, 60_000);

  it('skip: links only; only: the sitemap URLs (and the start URL), no link followed', async () => {
    const skipped = await firecrawl.crawl(`${web.url}/sm/`, { sitemap: 'skip', pollInterval: 1 });
    expect(sourceUrls(skipped.data)).toEqual(at('/sm/', '/sm/linked-1', '/sm/linked-2'));
    const only = await firecrawl.crawl(`${web.url}/sm/`, { sitemap: 'only', pollInterval: 1 });
    expect(sourceUrls(only.data)).toEqual(at('/sm/', '/sm/linked-1', '/sm/orphan-1', '/sm/orphan-2'));
  }, 60_000);

  it("v1: ignoreSitemap leaves the sitemap out; by default it is read, as Firecrawl v1's is", async () => {
    const ignored = await v1.crawlUrl(`${web.url}/sm/`, { ignoreSitemap: true }, 1);
    expect(ignored.success).toBe(true);
    const withMap = await v1.crawlUrl(`${web.url}/sm/`, {}, 1);
    if (!ignored.success || !withMap.success) throw new Error('crawl failed');
    expect(sourceUrls(ignored.data)).toEqual(at('/sm/', '/sm/linked-1', '/sm/linked-2'));
    expect(sourceUrls(withMap.data)).toContain(`${web.url}/sm/orphan-2`);
  }, 60_000);
});

describe('deduplicateSimilarURLs', () => {
  it('by default a trailing slash or index.html is the same page; false reads each spelling', async () => {
    const deduplicated = await firecrawl.crawl(`${web.url}/dd/`, { pollInterval: 1 });
    expect(sourceUrls(deduplicated.data)).toEqual(at('/dd/', '/dd/stone/'));
    const every = await firecrawl.crawl(`${web.url}/dd/`, { deduplicateSimilarURLs: false, pollInterval: 1 });
    expect(sourceUrls(every.data)).toEqual(at('/dd/', '/dd/stone/', '/dd/stone/index.html', '/dd/stone'));
  }, 60_000);
});

describe('delay', () => {
  it('reads one page at a time, the delay apart, whatever maxConcurrency says', async () => {
    const job = await firecrawl.crawl(`${web.url}/dl/`, { delay: 0.3, maxConcurrency: 8, pollInterval: 1 });
    expect(sourceUrls(job.data)).toEqual(at('/dl/', '/dl/a', '/dl/b', '/dl/c'));
    const arrivals = web.arrivals('/dl/');
    expect(arrivals).toHaveLength(4);
    // Timer slack may fire a few ms early; anything near 300 ms apart is paced, a parallel read is ~0 ms apart.
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThan(280);
  }, 60_000);

  it('refuses a delay beyond the bound with a 400 naming it', async () => {
    const bad = await quarry.post('/firecrawl/v2/crawl', { url: `${web.url}/dl/`, delay: 10_000 });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(JSON.stringify(bad.body)).toContain('delay');
  });
});

describe('prompt', () => {
  // What a model may answer: some options right, one pattern broken, one value out of range, one unknown option.
  const answer = {
    includePaths: ['^/sm/orphan-\\d$', '(unclosed'],
    excludePaths: ['orphan-2'],
    sitemap: 'include',
    limit: 'ten',
    maxDiscoveryDepth: -3,
    deduplicateSimilarURLs: true,
    followEverything: true,
  };

  it('params-preview: the options the model read, each checked, the invalid ones left out', async () => {
    llm.script(chatCompletionReply(answer));
    const preview = await prompted.crawlParamsPreview(`${web.url}/sm/`, 'only the orphan pages, not the second one');
    expect(preview).toEqual({
      url: `${web.url}/sm/`,
      excludePaths: ['orphan-2'],
      sitemap: 'include',
      deduplicateSimilarURLs: true,
    });
    expect(JSON.stringify(llm.received[0]?.body)).toContain('only the orphan pages, not the second one');
    // A pattern list with one bad entry is refused whole: a crawl never runs half of what the model wrote.
    expect(preview).not.toHaveProperty('includePaths');
  });

  it('crawl: the generated options run, a set option wins over its generated equivalent', async () => {
    llm.script(chatCompletionReply({ includePaths: ['^/sm/orphan-\\d$'], excludePaths: ['orphan-2'], limit: 1 }));
    const job = await prompted.crawl(`${web.url}/sm/`, {
      prompt: 'the orphan pages except the second',
      limit: 10,
      pollInterval: 1,
    });
    // The start URL is read for its links but not listed: the generated includePaths leave it out.
    expect(sourceUrls(job.data)).toEqual(at('/sm/orphan-1'));
    expect(llm.received).toHaveLength(1);
    expect(JSON.stringify(llm.received[0]?.body)).toContain(`Start URL: ${web.url}/sm/`);
  }, 60_000);

  it('without a model: a 400 naming the setting, from the crawl and the preview', async () => {
    await expect(firecrawl.crawlParamsPreview(`${web.url}/sm/`, 'the blog')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('llm.fast'),
    });
    const crawl = await quarry.post('/firecrawl/v2/crawl', { url: `${web.url}/sm/`, prompt: 'the blog' });
    expect(crawl.status).toBe(400);
    expect(crawl.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(crawl.body.error).toMatch(/^prompt needs a language model/);
  });
});
