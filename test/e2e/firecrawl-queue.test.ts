/**
 * firecrawl-js (v2 and v1) queue status and concurrency check against Quarry's
 * Firecrawl mount while the key has jobs: a finished crawl and batch scrape set
 * mostRecentSuccess, a crawl held by a slow page is active and one behind it
 * waits (jobs.concurrency 1), and another key sees zeros and null throughout.
 * Waits are on the queue as the client reads it, never on time.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFirecrawlSite, sitePagePath } from '../sandbox/firecrawl-site.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const OTHER_KEY = 'other-key-0123456789';

let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;
let other: Firecrawl;
let v1: FirecrawlAppV1;
let otherV1: FirecrawlAppV1;

beforeAll(async () => {
  web = await startSandboxWeb();
  addFirecrawlSite(web, { pages: 5, privatePages: 0 });
  // A page that answers after a minute: a crawl of it stays running until it is cancelled.
  web.addPage(
    '/slow/',
    '<html><body><main><h1>Slow index</h1><p>Links to a page that takes long to answer, to keep a crawl ' +
      'running.</p><a href="/slow/a">a</a></main></body></html>',
    { contentType: 'text/html; charset=utf-8' },
  );
  web.addPage('/slow/a', '<html><body><main><p>slow page a</p></main></body></html>', {
    contentType: 'text/html; charset=utf-8',
    delayMs: 60_000,
  });
  // One firecrawl job at a time, so a second running crawl waits behind the first.
  quarry = await startQuarry(web, { jobs: { concurrency: 1 } }, { apiKeys: [TEST_KEY, OTHER_KEY] });
  const apiUrl = `${quarry.url}/firecrawl`;
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl });
  other = new Firecrawl({ apiKey: OTHER_KEY, apiUrl });
  v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl });
  otherV1 = new FirecrawlAppV1({ apiKey: OTHER_KEY, apiUrl });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const EMPTY_QUEUE = { success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0 };

/** The other key's view, v2 and v1: nothing of this key's jobs. */
async function otherSeesNothing(): Promise<void> {
  expect(await other.getQueueStatus()).toMatchObject({ ...EMPTY_QUEUE, maxConcurrency: 1, mostRecentSuccess: null });
  expect(await otherV1.getQueueStatus()).toMatchObject({ ...EMPTY_QUEUE, mostRecentSuccess: null });
  expect(await other.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 1 });
}

describe('firecrawl-js queue status with jobs', () => {
  it('counts running and waiting crawls, and answers when the latest crawl or batch scrape completed', async () => {
    expect(await firecrawl.getQueueStatus()).toMatchObject({ ...EMPTY_QUEUE, mostRecentSuccess: null });

    const crawlStarted = Date.now();
    const crawl = await firecrawl.crawl(`${web.url}/fc/`, { limit: 2, pollInterval: 1 });
    expect(crawl.status).toBe('completed');
    const afterCrawl = (await firecrawl.getQueueStatus()).mostRecentSuccess;
    expect(Date.parse(afterCrawl!)).toBeGreaterThanOrEqual(crawlStarted);
    expect(Date.parse(afterCrawl!)).toBeLessThanOrEqual(Date.now());

    const batchStarted = Date.now();
    const batch = await firecrawl.batchScrape([`${web.url}${sitePagePath(1)}`], { pollInterval: 1 });
    expect(batch.status).toBe('completed');
    const latest = (await firecrawl.getQueueStatus()).mostRecentSuccess;
    expect(Date.parse(latest!)).toBeGreaterThanOrEqual(Math.max(batchStarted, Date.parse(afterCrawl!)));
    await otherSeesNothing();

    const running = await firecrawl.startCrawl(`${web.url}/slow/`, { limit: 2 });
    const behind = await firecrawl.startCrawl(`${web.url}/slow/`, { limit: 2 });
    const queue = await until(
      'one crawl running and one waiting',
      async () => {
        const status = await firecrawl.getQueueStatus();
        return status.activeJobsInQueue === 1 ? status : null;
      },
      30_000,
      50,
    );
    expect(queue).toEqual({
      success: true,
      jobsInQueue: 2,
      activeJobsInQueue: 1,
      waitingJobsInQueue: 1,
      maxConcurrency: 1,
      mostRecentSuccess: latest,
    });
    expect(await firecrawl.getConcurrency()).toEqual({ concurrency: 1, maxConcurrency: 1 });
    expect(await v1.getQueueStatus()).toEqual(queue);
    await otherSeesNothing();

    // Cancelled crawls leave the queue and are no success.
    expect(await firecrawl.cancelCrawl(behind.id)).toBe(true);
    expect(await firecrawl.cancelCrawl(running.id)).toBe(true);
    const emptied = await until(
      'the cancelled crawls to leave the queue',
      async () => {
        const status = await firecrawl.getQueueStatus();
        return status.jobsInQueue === 0 ? status : null;
      },
      30_000,
      50,
    );
    expect(emptied).toMatchObject({ ...EMPTY_QUEUE, mostRecentSuccess: latest });
  }, 90_000);

  it('queue status without a key is 401, as every route', async () => {
    for (const version of ['v2', 'v1'])
      expect((await fetch(`${quarry.url}/firecrawl/${version}/team/queue-status`)).status).toBe(401);
  });
});
