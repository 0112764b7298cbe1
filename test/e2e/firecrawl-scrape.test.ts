/**
 * The official Firecrawl client (@mendable/firecrawl-js 4.x, unchanged), in its
 * v2 form and its v1 form, pointed at Quarry's Firecrawl mount
 * (`apiUrl: <quarry>/firecrawl`): scrape with every page format and the
 * metadata the clients read, the page cache through maxAge/storeInCache, the
 * credential check, and errors in Firecrawl's envelope (keys, bad input,
 * robots.txt, json without a language model).
 */
import { existsSync } from 'node:fs';
import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFirecrawlSite, privatePagePath, sitePagePath } from '../sandbox/firecrawl-site.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const hasChromium = existsSync('/usr/bin/chromium');

let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;
let v1: FirecrawlAppV1;

beforeAll(async () => {
  web = await startSandboxWeb();
  addFirecrawlSite(web, { pages: 5, privatePages: 1 });
  web.setRobots('User-agent: *\nDisallow: /fc/private/\n');
  web.addPage(
    '/fc/reveal',
    '<!doctype html><html lang="en"><head><title>Reveal</title></head><body><main><h1>Hidden ' +
      'stone</h1><p>Press the button to see the answer about the quarry stone.</p>' +
      '<button id="show" onclick="document.getElementById(\'answer\').textContent=\'The revealed stone is ' +
      'porphyry from the lower bench.\'">Show</button><p id="answer"></p></main></body></html>',
    { contentType: 'text/html; charset=utf-8' },
  );
  quarry = await startQuarry(web);
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const pageUrl = (i: number) => `${web.url}${sitePagePath(i)}`;
const requestsFor = (path: string) => web.requestLog().filter((r) => r.path === path).length;

describe('firecrawl-js v2 scrape', () => {
  it('answers every page format and the metadata the clients read', async () => {
    const doc = await firecrawl.scrape(pageUrl(1), {
      formats: ['markdown', 'html', 'rawHtml', 'links', 'images'],
      maxAge: 0,
    });
    expect(doc.markdown).toContain('diamond wire');
    expect(doc.rawHtml).toContain('<article>');
    expect(doc.html).toContain('diamond wire');
    expect(doc.links).toEqual(expect.arrayContaining([pageUrl(2), pageUrl(3)]));
    expect(doc.images).toContain(`${web.url}/fc/img/1.png`);
    const meta = doc.metadata!;
    expect(meta.sourceURL).toBe(pageUrl(1));
    expect(meta.url).toBe(pageUrl(1));
    expect(meta.statusCode).toBe(200);
    expect(meta.title).toBe('Quarry stone 1: basalt');
    expect(meta.description).toBe('How basalt is quarried, page 1.');
    expect(meta.language).toBe('en');
    expect(meta.ogTitle).toBe('Quarry stone 1: basalt');
    expect(meta.ogSiteName).toBe('Quarry stones');
    expect(meta.contentType).toBe('text/html');
    expect(meta.cacheState).toBe('miss');
    expect(meta.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('markdown by default; unknown fields at any depth are ignored and named back at the top', async () => {
    const response = await quarry.post('/firecrawl/v2/scrape', {
      url: pageUrl(2),
      formats: [{ type: 'markdown', someFutureOption: 1 }],
      origin: 'test',
      integration: 'anything-at-all',
      futureField: true,
      parsers: [{ type: 'pdf', mode: 'fast' }],
      location: { country: 'US', languages: ['en'] },
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.markdown).toContain('stamped with its bed number');
    expect(response.headers.get('x-quarry-ignored-fields')).toBe('futureField');
  });

  it('a scheme-less URL gets one, as Firecrawl adds it', async () => {
    const doc = await firecrawl.scrape(pageUrl(3).replace(/^http:\/\//, ''));
    expect(doc.metadata?.sourceURL).toBe(pageUrl(3));
  });

  it('maxAge serves a cached read; maxAge 0 reads afresh; storeInCache false keeps a read out of the cache', async () => {
    const path = sitePagePath(4);
    const before = requestsFor(path);
    const first = await firecrawl.scrape(pageUrl(4), { formats: ['markdown'], storeInCache: false });
    expect(first.metadata?.cacheState).toBe('miss');
    const second = await firecrawl.scrape(pageUrl(4), { formats: ['markdown'] });
    expect(second.metadata?.cacheState).toBe('miss');
    const third = await firecrawl.scrape(pageUrl(4), { formats: ['markdown'], maxAge: 60_000 });
    expect(third.metadata?.cacheState).toBe('hit');
    expect(third.metadata?.cachedAt).toBeTruthy();
    const fresh = await firecrawl.scrape(pageUrl(4), { formats: ['markdown'], maxAge: 0 });
    expect(fresh.metadata?.cacheState).toBe('miss');
    expect(requestsFor(path) - before).toBe(3);
  });

  it.runIf(hasChromium)(
    'screenshot (and full page) renders the page: a PNG data URL',
    async () => {
      const doc = await firecrawl.scrape(pageUrl(0), {
        formats: ['markdown', { type: 'screenshot', fullPage: true }],
        maxAge: 0,
      });
      expect(doc.screenshot).toMatch(/^data:image\/png;base64,iVBOR/);
      expect(doc.markdown).toContain('granite');
    },
    60_000,
  );

  it.runIf(hasChromium)(
    'actions: click, then a screenshot and a scrape of the page with the revealed text',
    async () => {
      const doc = await firecrawl.scrape(`${web.url}/fc/reveal`, {
        formats: ['markdown'],
        maxAge: 0,
        actions: [
          { type: 'click', selector: '#show' },
          { type: 'wait', milliseconds: 100 },
          { type: 'screenshot', fullPage: true, viewport: { width: 800, height: 600 } } as never,
          { type: 'scrape' },
        ],
      });
      const actions = doc.actions as { screenshots: string[]; scrapes: Array<{ url: string; html: string }> };
      expect(actions.screenshots).toHaveLength(1);
      expect(actions.screenshots[0]).toMatch(/^data:image\/png;base64,iVBOR/);
      expect(actions.scrapes[0]!.html).toContain('The revealed stone is porphyry');
      expect(doc.markdown).toContain('porphyry');
      const failed = await firecrawl
        .scrape(`${web.url}/fc/reveal`, {
          maxAge: 0,
          timeout: 5000,
          actions: [{ type: 'click', selector: '#no-such-button' }],
        })
        .catch((error: unknown) => error);
      expect((failed as SdkError).status).toBe(400);
      expect((failed as SdkError).code).toBe('SCRAPE_ACTION_ERROR');
      const script = await firecrawl
        .scrape(`${web.url}/fc/reveal`, { actions: [{ type: 'executeJavascript', script: '1' }] })
        .catch((error: unknown) => error);
      expect((script as SdkError).status).toBe(403);
    },
    90_000,
  );

  it('summary without a model is extractive: sentences of the page', async () => {
    const doc = await firecrawl.scrape(pageUrl(1), { formats: ['summary'] });
    expect(doc.summary).toBeTruthy();
    expect(doc.markdown).toBeUndefined();
  });

  it('formats the server does not produce are named in warning', async () => {
    const doc = await firecrawl.scrape(pageUrl(1), { formats: ['markdown', 'branding'] as never });
    expect(doc.warning).toContain('branding');
  });
});

describe('firecrawl-js v1 scrapeUrl', () => {
  it('scrapes with v1 format strings; success and the data spread', async () => {
    const result = await v1.scrapeUrl(pageUrl(2), { formats: ['markdown', 'links', 'rawHtml'] });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.markdown).toContain('wedges and feathers');
    expect(result.links).toContain(pageUrl(3));
    expect(result.rawHtml).toContain('<article>');
    expect(result.metadata?.sourceURL).toBe(pageUrl(2));
    expect(result.metadata?.statusCode).toBe(200);
  });

  it('v1 reads afresh by default (maxAge 0)', async () => {
    await v1.scrapeUrl(pageUrl(3), { formats: ['markdown'] });
    const again = await v1.scrapeUrl(pageUrl(3), { formats: ['markdown'] });
    expect(again.success && again.metadata?.cacheState).toBe('miss');
  });
});

describe('the Firecrawl envelope: keys, credit usage, errors', () => {
  it('credit usage answers the credential check (v2 and v1) with the pages read for the key', async () => {
    const used = async () => {
      const usage = await firecrawl.getCreditUsage();
      expect(usage.remainingCredits).toBeGreaterThan(0);
      return usage.planCredits! - usage.remainingCredits;
    };
    const before = await used();
    await firecrawl.scrape(pageUrl(11), { formats: ['markdown'] });
    await v1.scrapeUrl(pageUrl(12), { formats: ['markdown'] });
    expect(await used()).toBe(before + 2);
    // A crawl counts each document it keeps, as Firecrawl charges a credit per crawled page.
    const crawl = await firecrawl.crawl(`${web.url}/fc/`, { limit: 3, pollInterval: 1 });
    expect(crawl.data).toHaveLength(3);
    expect(await used()).toBe(before + 5);
    const legacy = await v1.getCreditUsage();
    if (!legacy.success || !('data' in legacy)) throw new Error('v1 credit usage failed');
    expect(legacy.data.plan_credits - legacy.data.remaining_credits).toBe(before + 5);
  }, 60_000);

  it("queue status and concurrency check answer this key's jobs (v2 and v1) in the client's shape", async () => {
    const queue = await firecrawl.getQueueStatus();
    expect(queue).toMatchObject({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0 });
    expect(queue.maxConcurrency).toBeGreaterThanOrEqual(1);
    // The crawl of the credit test above completed: its time (firecrawl-team.test.ts tests the value).
    expect(Number.isNaN(Date.parse(queue.mostRecentSuccess ?? ''))).toBe(false);
    const concurrency = await firecrawl.getConcurrency();
    expect(concurrency).toEqual({ concurrency: 0, maxConcurrency: queue.maxConcurrency });
    expect(await v1.getQueueStatus()).toMatchObject({
      success: true,
      jobsInQueue: 0,
      maxConcurrency: queue.maxConcurrency,
      mostRecentSuccess: queue.mostRecentSuccess,
    });
    const keyless = await fetch(`${quarry.url}/firecrawl/v2/concurrency-check`);
    expect(keyless.status).toBe(401);
  });

  it("a request without a key, or with another key, is 401 with Firecrawl's string error", async () => {
    const keyless = new Firecrawl({ apiUrl: `${quarry.url}/firecrawl` });
    const failure = await keyless.scrape(pageUrl(1)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(401);
    expect((failure as SdkError).message).toMatch(/^Unauthorized: missing API key/);
    const raw = await fetch(`${quarry.url}/firecrawl/v2/scrape`, {
      method: 'POST',
      headers: { authorization: 'Bearer ', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    const body = await raw.json();
    expect(body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect(typeof body.error).toBe('string');
    const wrong = await new Firecrawl({ apiKey: 'not-the-key', apiUrl: `${quarry.url}/firecrawl` })
      .getCreditUsage()
      .catch((error: unknown) => error);
    expect((wrong as SdkError).status).toBe(401);
  });

  it('bad input is 400 BAD_REQUEST naming the field', async () => {
    const failure = await firecrawl.scrape(pageUrl(1), { timeout: 'soon' } as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(400);
    expect((failure as SdkError).code).toBe('BAD_REQUEST');
    expect((failure as SdkError).message).toMatch(/timeout/);
    const malformed = await fetch(`${quarry.url}/firecrawl/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, code: 'BAD_REQUEST_INVALID_JSON' });
  });

  it('a robots.txt-disallowed page is a 403 and is never requested', async () => {
    const failure = await firecrawl.scrape(`${web.url}${privatePagePath(0)}`).catch((error: unknown) => error);
    expect((failure as SdkError).status).toBe(403);
    expect((failure as SdkError).code).toBe('SCRAPE_ROBOTS_DISALLOWED');
    expect(requestsFor(privatePagePath(0))).toBe(0);
  });

  it('a page the site answers 404 is a Document with its status, as Firecrawl answers it', async () => {
    const doc = await firecrawl.scrape(`${web.url}/fc/missing`);
    expect(doc.metadata?.statusCode).toBe(404);
    expect(doc.metadata?.error).toMatch(/404/);
  });

  it('json without a language model: a clear error naming the setting', async () => {
    const failure = await firecrawl
      .scrape(pageUrl(1), { formats: [{ type: 'json', prompt: 'the stone' }] })
      .catch((error: unknown) => error);
    expect((failure as SdkError).status).toBe(400);
    expect((failure as SdkError).message).toMatch(/llm\.quality or llm\.fast/);
  });

  it('the same routes answer under /api/v1/firecrawl', async () => {
    const other = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/api/v1/firecrawl` });
    const doc = await other.scrape(pageUrl(0));
    expect(doc.markdown).toContain('granite');
  });
});
