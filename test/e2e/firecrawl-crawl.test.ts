/**
 * firecrawl-js (v2 and v1) crawl and batch scrape against Quarry's Firecrawl
 * mount, on a local site of 120 linked pages with a robots-disallowed section:
 * every page exactly once across `next` pages, the disallowed section never
 * requested (counted at the site) and listed in robotsBlocked, cancel, the
 * errors route, active crawls, and a second key that cannot see the first
 * key's crawl; Firecrawl's webhook events, signed. Waits are on the job's status and the deliveries,
 * never on time.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFirecrawlSite, privatePagePath, sitePagePath } from '../sandbox/firecrawl-site.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { onTwoInstances, startQuarry, TEST_KEY, WEBHOOK_SECRET, type RunningQuarry } from './harness.js';

const PAGES = 120;
const PRIVATE_PAGES = 3;
const OTHER_KEY = 'other-key-0123456789';

let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;
let other: Firecrawl;
let v1: FirecrawlAppV1;

/** Every URL of the public site: the index and its pages. */
const siteUrls = (): string[] => [
  `${web.url}/fc/`,
  ...Array.from({ length: PAGES }, (_, i) => `${web.url}${sitePagePath(i)}`),
];

const sourceUrls = (docs: Array<{ metadata?: { sourceURL?: string } }>): string[] =>
  docs.map((doc) => doc.metadata?.sourceURL ?? '');

beforeAll(async () => {
  web = await startSandboxWeb();
  addFirecrawlSite(web, { pages: PAGES, privatePages: PRIVATE_PAGES });
  // A slow section, for cancelling a crawl while it reads.
  web.addPage(
    '/slow/',
    '<html><body><main><h1>Slow index</h1><p>Links to pages that take long to answer, for the cancel test of ' +
      'the crawl.</p><a href="/slow/a">a</a><a href="/slow/b">b</a></main></body></html>',
    {
      contentType: 'text/html; charset=utf-8',
    },
  );
  for (const name of ['a', 'b'])
    web.addPage(`/slow/${name}`, `<html><body><main><p>slow page ${name}</p></main></body></html>`, {
      contentType: 'text/html; charset=utf-8',
      delayMs: 60_000,
    });
  // A section with a page the reader cannot read (not a document type), for the errors route.
  web.addPage(
    '/odd/',
    '<html><body><main><h1>Odd index</h1><p>One readable page and one blob that is not a document at all, ' +
      'for the errors route.</p><a href="/odd/ok">ok</a><a href="/odd/blob">blob</a></main></body></html>',
    {
      contentType: 'text/html; charset=utf-8',
    },
  );
  web.addPage(
    '/odd/ok',
    '<html><body><main><h1>OK</h1><p>A readable page with enough words to count as content for the ' +
      'reader.</p></main></body></html>',
    {
      contentType: 'text/html; charset=utf-8',
    },
  );
  web.addPage('/odd/blob', 'PK\u0003\u0004 not a page', { contentType: 'application/zip' });
  web.setRobots('User-agent: *\nDisallow: /fc/private/\n');
  quarry = await startQuarry(web, {}, { apiKeys: [TEST_KEY, OTHER_KEY] });
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
  other = new Firecrawl({ apiKey: OTHER_KEY, apiUrl: `${quarry.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

async function finished(id: string, path = 'crawl') {
  return until(
    `${path} ${id} to finish`,
    async () => {
      const { body } = await quarry.get(`/firecrawl/v2/${path}/${id}?limit=1`);
      return body.status !== 'scraping' ? body : null;
    },
    60_000,
    50,
  );
}

describe('firecrawl-js v2 crawl', () => {
  let crawlId: string;

  it('crawl(): every page of the site once, the robots-disallowed section never requested', async () => {
    const job = await firecrawl.crawl(`${web.url}/fc/`, {
      limit: 500,
      scrapeOptions: { formats: ['markdown', 'links'] },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    const urls = sourceUrls(job.data);
    expect([...urls].sort()).toEqual(siteUrls().sort());
    expect(job.completed).toBe(PAGES + 1);
    expect(job.total).toBe(PAGES + 1);
    expect(Number.isInteger(job.creditsUsed)).toBe(true);
    expect(Number.isNaN(Date.parse(job.expiresAt ?? ''))).toBe(false);
    const page = job.data.find((doc) => doc.metadata?.sourceURL === `${web.url}${sitePagePath(7)}`)!;
    expect(page.markdown).toContain('Page 7 describes how');
    expect(page.links).toContain(`${web.url}${sitePagePath(8)}`);
    expect(web.requestLog().filter((r) => r.path.startsWith('/fc/private/'))).toEqual([]);
    crawlId = job.id!;
  }, 90_000);

  it('status pages: `next` is absolute, each document appears once, the last page has no next', async () => {
    const first = await quarry.get(`/firecrawl/v2/crawl/${crawlId}?limit=7`);
    expect(first.status).toBe(200);
    const seen: string[] = sourceUrls(first.body.data);
    let next: string | undefined = first.body.next;
    let pages = 1;
    while (next) {
      expect(next.startsWith(`${quarry.url}/firecrawl/v2/crawl/${crawlId}?skip=`)).toBe(true);
      const response = await fetch(next, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      const body = (await response.json()) as { data: Array<{ metadata?: { sourceURL?: string } }>; next?: string };
      expect(body.data.length).toBeGreaterThan(0);
      seen.push(...sourceUrls(body.data));
      if (!body.next) expect('next' in body).toBe(false);
      next = body.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil((PAGES + 1) / 7));
    expect(seen).toHaveLength(PAGES + 1);
    expect([...seen].sort()).toEqual(siteUrls().sort());
    // Without http.trustProxy a client's X-Forwarded-Host does not move `next`.
    const forwarded = await quarry.get(`/firecrawl/v2/crawl/${crawlId}?limit=7`, {
      'x-forwarded-host': 'evil.example',
    });
    expect(forwarded.body.next.startsWith(quarry.url)).toBe(true);
  });

  it('errors route: robots-blocked links are listed (never requested), unreadable pages are errors', async () => {
    const errors = await firecrawl.getCrawlErrors(crawlId);
    expect([...errors.robotsBlocked].sort()).toEqual(
      Array.from({ length: PRIVATE_PAGES }, (_, p) => `${web.url}${privatePagePath(p)}`).sort(),
    );
    expect(errors.errors).toEqual([]);

    const odd = await firecrawl.crawl(`${web.url}/odd/`, { pollInterval: 1 });
    expect(sourceUrls(odd.data).sort()).toEqual([`${web.url}/odd/`, `${web.url}/odd/ok`]);
    const oddErrors = await firecrawl.getCrawlErrors(odd.id!);
    expect(oddErrors.errors).toEqual([
      expect.objectContaining({ url: `${web.url}/odd/blob`, code: expect.any(String), error: expect.any(String) }),
    ]);
  }, 60_000);

  it('includePaths, excludePaths and limit choose the pages taken', async () => {
    const job = await firecrawl.crawl(`${web.url}/fc/`, {
      includePaths: ['^/fc/page-\\d$'],
      excludePaths: ['page-3'],
      limit: 100,
      pollInterval: 1,
    });
    // The start URL is read for its links but not listed (the filters leave it out); links they drop are not followed.
    const urls = sourceUrls(job.data).sort();
    expect(urls).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9].map((i) => `${web.url}${sitePagePath(i)}`).sort());
    const limited = await firecrawl.crawl(`${web.url}/fc/`, { limit: 5, pollInterval: 1 });
    expect(limited.data).toHaveLength(5);
  }, 90_000);

  it('cancel, active crawls, and another key seeing none of it', async () => {
    const started = await firecrawl.startCrawl(`${web.url}/slow/`, { limit: 10 });
    expect(started.url).toBe(`${quarry.url}/firecrawl/v2/crawl/${started.id}`);
    await until('the slow pages to be requested', async () => web.openRequests('/slow/') > 0, 20_000, 20);

    const active = await firecrawl.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    expect(active.crawls.find((c) => c.id === started.id)?.url).toBe(`${web.url}/slow/`);
    expect((await other.getActiveCrawls()).crawls).toEqual([]);
    await expect(other.getCrawlStatus(started.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.cancelCrawl(started.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.getCrawlErrors(started.id)).rejects.toMatchObject({ status: 404 });

    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    const status = await firecrawl.getCrawlStatus(started.id);
    expect(status.status).toBe('cancelled');
    expect(sourceUrls(status.data)).toEqual([`${web.url}/slow/`]);
    expect((await firecrawl.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(started.id);
    await until('the slow reads to stop', async () => web.openRequests('/slow/') === 0, 20_000, 20);
  }, 60_000);

  it('refuses bad input with 400 naming the field, and unknown ids with 404', async () => {
    const bad = await quarry.post('/firecrawl/v2/crawl', { url: `${web.url}/fc/`, includePaths: ['(unclosed'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(bad.body.error).toContain('includePaths');
    const unknown = await quarry.get('/firecrawl/v2/crawl/crawl_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    // Refused by the router, before any route is chosen: still Firecrawl's envelope.
    const long = await quarry.get(`/firecrawl/v2/crawl/${'a'.repeat(300)}`);
    expect(long.status).toBe(414);
    expect(long.body).toMatchObject({ success: false, code: 'URI_TOO_LONG' });
  });
});

describe('firecrawl-js v2 batch scrape', () => {
  it('reads every URL, names invalid ones, pages its status; errors and cancel answer', async () => {
    const urls = [0, 1, 2, 3].map((i) => `${web.url}${sitePagePath(i)}`);
    const started = await firecrawl.startBatchScrape([...urls, 'not a url at all'], {
      options: { formats: ['markdown'] },
      ignoreInvalidURLs: true,
    });
    expect(started.invalidURLs).toEqual(['not a url at all']);
    expect(started.url).toBe(`${quarry.url}/firecrawl/v2/batch/scrape/${started.id}`);
    const done = await firecrawl.getBatchScrapeStatus(started.id);
    const final = done.status === 'scraping' ? await finished(started.id, 'batch/scrape') : done;
    expect(final.status).toBe('completed');

    const all = await firecrawl.getBatchScrapeStatus(started.id);
    expect(sourceUrls(all.data).sort()).toEqual([...urls].sort());
    expect(all.completed).toBe(4);
    const paged = await quarry.get(`/firecrawl/v2/batch/scrape/${started.id}?limit=3`);
    expect(paged.body.data).toHaveLength(3);
    expect(paged.body.next).toBe(`${quarry.url}/firecrawl/v2/batch/scrape/${started.id}?skip=3&limit=3`);

    expect(await firecrawl.getBatchScrapeErrors(started.id)).toEqual({ errors: [], robotsBlocked: [] });
    const blocked = await firecrawl.batchScrape([`${web.url}${privatePagePath(0)}`, urls[0]!], { pollInterval: 1 });
    expect(sourceUrls(blocked.data)).toEqual([urls[0]]);
    expect((await firecrawl.getBatchScrapeErrors(blocked.id!)).robotsBlocked).toEqual([
      `${web.url}${privatePagePath(0)}`,
    ]);
    expect(web.requestLog().filter((r) => r.path.startsWith('/fc/private/'))).toEqual([]);

    const strict = await quarry.post('/firecrawl/v1/batch/scrape', { urls: [urls[0], 'ftp://example.com/file'] });
    expect(strict.status).toBe(400);
    expect(strict.body.error).toContain('urls[1]');

    const slow = await firecrawl.startBatchScrape([`${web.url}/slow/a`]);
    await until('the slow page to be requested', async () => web.openRequests('/slow/a') > 0, 20_000, 20);
    expect(await firecrawl.cancelBatchScrape(slow.id)).toBe(true);
    expect((await firecrawl.getBatchScrapeStatus(slow.id)).status).toBe('cancelled');
    await expect(other.getBatchScrapeStatus(slow.id)).rejects.toMatchObject({ status: 404 });
  }, 60_000);
});

describe('firecrawl-js v1', () => {
  it('crawlUrl(): waits, then follows next; checkCrawlStatus pages by skip and limit', async () => {
    const result = await v1.crawlUrl(`${web.url}/fc/`, { limit: 500, scrapeOptions: { formats: ['markdown'] } }, 1);
    if (!result.success) throw new Error(`crawl failed: ${'error' in result ? result.error : ''}`);
    expect(result.status).toBe('completed');
    expect(sourceUrls(result.data).sort()).toEqual(siteUrls().sort());

    const started = await v1.asyncCrawlUrl(`${web.url}/fc/`, { limit: 30 });
    if (!started.success) throw new Error('asyncCrawlUrl failed');
    await finished(started.id!);
    const seen: string[] = [];
    let page = await v1.checkCrawlStatus(started.id, false, undefined, 0, 8);
    for (;;) {
      if (!page.success) throw new Error('checkCrawlStatus failed');
      seen.push(...sourceUrls(page.data));
      if (!page.next) break;
      expect(page.next.startsWith(`${quarry.url}/firecrawl/v1/crawl/${started.id}?skip=`)).toBe(true);
      page = await v1.checkCrawlStatus(started.id, false, page.next);
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    // firecrawl-js v1 asks for errors with DELETE.
    const errors = await v1.checkCrawlErrors(started.id!);
    expect(errors).toMatchObject({ errors: [], robotsBlocked: expect.any(Array) });
  }, 90_000);

  it('batchScrapeUrls(): polled at /v1/crawl/:id, which answers batch ids too', async () => {
    const urls = [4, 5].map((i) => `${web.url}${sitePagePath(i)}`);
    const result = await v1.batchScrapeUrls(urls, { formats: ['markdown'] }, 1);
    if (!result.success) throw new Error('batch failed');
    expect(result.status).toBe('completed');
    expect(sourceUrls(result.data).sort()).toEqual(urls.sort());
  }, 60_000);
});

describe('the address in url and next', () => {
  it('comes from X-Forwarded-Proto/-Host with http.trustProxy, and from http.publicUrl when set', async () => {
    const behindProxy = await startQuarry(web, { http: { trustProxy: true } });
    const published = await startQuarry(web, { http: { publicUrl: 'https://search.example.com/quarry/' } });
    try {
      const body = { urls: [`${web.url}${sitePagePath(0)}`, `${web.url}${sitePagePath(1)}`] };
      const proxied = await behindProxy.post('/firecrawl/v2/batch/scrape', body, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'quarry.example',
      });
      expect(proxied.body.url).toBe(`https://quarry.example/firecrawl/v2/batch/scrape/${proxied.body.id}`);
      const fromConfig = await published.post('/firecrawl/v1/batch/scrape', body, {
        'x-forwarded-host': 'evil.example',
      });
      const id = fromConfig.body.id as string;
      expect(fromConfig.body.url).toBe(`https://search.example.com/quarry/firecrawl/v1/batch/scrape/${id}`);
      const status = await until(
        'the batch to finish',
        async () => {
          const { body: page } = await published.get(`/firecrawl/v1/batch/scrape/${id}?limit=1`);
          return page.status === 'completed' ? page : null;
        },
        30_000,
        50,
      );
      expect(status.next).toBe(`https://search.example.com/quarry/firecrawl/v1/batch/scrape/${id}?skip=1&limit=1`);
    } finally {
      await behindProxy.close();
      await published.close();
    }
  }, 60_000);
});

describe('webhooks', () => {
  const signatureOf = (body: string) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;

  it("crawl: started, one page event per document, completed, with the caller's headers and metadata, signed", async () => {
    const started = await firecrawl.startCrawl(`${web.url}/odd/`, {
      webhook: {
        url: web.webhookUrl('fc-crawl'),
        headers: { 'x-team': 'stone' },
        metadata: { run: 'seven' },
        events: ['started', 'page', 'completed'],
      },
    });
    const deliveries = await web.waitForWebhook('fc-crawl', 4, 30_000);
    const bodies = deliveries.map((d) => JSON.parse(d.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['crawl.completed', 'crawl.page', 'crawl.page', 'crawl.started']);
    for (const [i, delivery] of deliveries.entries()) {
      expect(bodies[i]).toMatchObject({ success: true, id: started.id, metadata: { run: 'seven' } });
      expect(delivery.headers['x-team']).toBe('stone');
      expect(delivery.headers['x-firecrawl-signature']).toBe(signatureOf(delivery.body));
    }
    const pages = bodies.filter((b) => b.type === 'crawl.page');
    expect(pages.flatMap((b) => sourceUrls(b.data)).sort()).toEqual([`${web.url}/odd/`, `${web.url}/odd/ok`]);
    expect(new Set(bodies.map((b) => b.webhookId)).size).toBe(4);
  }, 60_000);

  it('batch scrape: a webhook given as a URL hears every event; a URL the outbound policy refuses is a 400', async () => {
    const started = await firecrawl.startBatchScrape([`${web.url}${sitePagePath(2)}`], {
      webhook: web.webhookUrl('fc-batch'),
    });
    const deliveries = await web.waitForWebhook('fc-batch', 3, 30_000);
    const bodies = deliveries.map((d) => JSON.parse(d.body));
    expect(bodies.map((b) => b.type).sort()).toEqual([
      'batch_scrape.completed',
      'batch_scrape.page',
      'batch_scrape.started',
    ]);
    expect(bodies.every((b) => b.id === started.id)).toBe(true);

    const refused = await quarry.post('/firecrawl/v2/crawl', {
      url: `${web.url}/odd/`,
      webhook: { url: 'http://10.0.0.1/hook' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('webhook.url');
  }, 60_000);
});

describe('durable jobs', () => {
  it('keeps a finished crawl and its documents across a restart (embedded store)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-fc-'));
    try {
      const before = await startQuarry(web, {}, { dataDir });
      const client = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${before.url}/firecrawl` });
      const job = await client.crawl(`${web.url}/odd/`, { pollInterval: 1 });
      await before.close();
      const after = await startQuarry(web, {}, { dataDir });
      try {
        const status = await after.get(`/firecrawl/v2/crawl/${job.id}`);
        expect(status.body.status).toBe('completed');
        expect(sourceUrls(status.body.data).sort()).toEqual(sourceUrls(job.data).sort());
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a key's job past quotas.firecrawlJobs while its others run; other keys are not counted", async () => {
    const limited = await startQuarry(web, { quotas: { firecrawlJobs: 1 } }, { apiKeys: [TEST_KEY, OTHER_KEY] });
    try {
      const mine = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${limited.url}/firecrawl` });
      const theirs = new Firecrawl({ apiKey: OTHER_KEY, apiUrl: `${limited.url}/firecrawl` });
      const slow = await mine.startCrawl(`${web.url}/slow/`, { limit: 5 });
      const refused = await limited.post('/firecrawl/v2/batch/scrape', { urls: [`${web.url}${sitePagePath(1)}`] });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, code: 'QUOTA_EXCEEDED' });
      expect(refused.body.error).toContain('quotas.firecrawlJobs');
      const other = await theirs.startBatchScrape([`${web.url}${sitePagePath(1)}`]);
      expect(other.id).toMatch(/^batch_/);
      await mine.cancelCrawl(slow.id);
      const again = await mine.startBatchScrape([`${web.url}${sitePagePath(1)}`]);
      expect(again.id).toMatch(/^batch_/);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it.runIf(hasRedisServer)(
    'on Redis: a crawl started on one instance is listed, paged and cancelled from another',
    () =>
      onTwoInstances(web, async (first, second) => {
        const one = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${first.url}/firecrawl` });
        const two = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${second.url}/firecrawl` });
        const slow = await one.startCrawl(`${web.url}/slow/`, { limit: 5 });
        await until(
          'the slow crawl to be listed on the other instance',
          async () => {
            const active = await two.getActiveCrawls();
            return active.crawls.some((c) => c.id === slow.id);
          },
          20_000,
          50,
        );
        const done = await one.crawl(`${web.url}/odd/`, { pollInterval: 1 });
        const paged = await second.get(`/firecrawl/v2/crawl/${done.id}?limit=1`);
        expect(paged.body.status).toBe('completed');
        expect(paged.body.next).toBe(`${second.url}/firecrawl/v2/crawl/${done.id}?skip=1&limit=1`);
        expect(await two.cancelCrawl(slow.id)).toBe(true);
        expect((await one.getCrawlStatus(slow.id)).status).toBe('cancelled');
      }),
    60_000,
  );
});
