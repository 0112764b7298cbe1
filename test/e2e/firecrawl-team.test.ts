/**
 * firecrawl-js (v2 and v1) team routes against Quarry's Firecrawl mount. Queue
 * status and concurrency check while the key has jobs: a finished crawl and
 * batch scrape set mostRecentSuccess, a crawl held by a slow page is active and
 * one behind it waits (jobs.concurrency 1), and another key sees zeros and null
 * throughout, on one instance and across two on Redis. Historical credit and
 * token usage by month, by key on request.
 * Waits are on the queue as the client reads it, never on time.
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPrincipalId } from '../../hosts/http/api-keys.js';
import { addFirecrawlSite, sitePagePath } from '../sandbox/firecrawl-site.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { onTwoInstances, startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

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

type QueueStatus = Awaited<ReturnType<Firecrawl['getQueueStatus']>>;

/** The key's queue status once it shows what `ready` waits for. */
function queueWhen(what: string, ready: (status: QueueStatus) => boolean): Promise<QueueStatus> {
  return until(
    what,
    async () => {
      const status = await firecrawl.getQueueStatus();
      return ready(status) ? status : null;
    },
    30_000,
    50,
  );
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
    const queue = await queueWhen('one crawl running and one waiting', (status) => status.activeJobsInQueue === 1);
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
    const emptied = await queueWhen('the cancelled crawls to leave the queue', (status) => status.jobsInQueue === 0);
    expect(emptied).toMatchObject({ ...EMPTY_QUEUE, mostRecentSuccess: latest });
  }, 90_000);

  it.runIf(hasRedisServer)(
    "on Redis: a crawl that completed on one instance is the key's mostRecentSuccess on another, and its credits too",
    () =>
      onTwoInstances(web, async (first, second) => {
        const one = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${first.url}/firecrawl` });
        const two = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${second.url}/firecrawl` });
        expect((await two.getQueueStatus()).mostRecentSuccess).toBeNull();
        const started = Date.now();
        const crawl = await one.crawl(`${web.url}/fc/`, { limit: 2, pollInterval: 1 });
        expect(crawl.status).toBe('completed');
        const seen = await two.getQueueStatus();
        expect(seen).toMatchObject(EMPTY_QUEUE);
        expect(Date.parse(seen.mostRecentSuccess!)).toBeGreaterThanOrEqual(started);
        expect((await one.getQueueStatus()).mostRecentSuccess).toBe(seen.mostRecentSuccess);
        // The first instance adds what it counted to the shared record within a second.
        await until(
          "the crawl's credits in the other instance's history",
          async () => {
            const history = await two.getCreditUsageHistorical();
            return history.periods.reduce((sum, period) => sum + period.creditsUsed, 0) === crawl.data.length;
          },
          10_000,
          50,
        );
      }),
    60_000,
  );

  it('queue status without a key is 401, as every route', async () => {
    for (const version of ['v2', 'v1'])
      expect((await fetch(`${quarry.url}/firecrawl/${version}/team/queue-status`)).status).toBe(401);
  });
});

describe('firecrawl-js historical usage', () => {
  it("answers the key's credits by calendar month, the current month last; by key on request (v2 and v1)", async () => {
    await firecrawl.scrape(`${web.url}${sitePagePath(2)}`, { formats: ['markdown'] });
    const usage = await firecrawl.getCreditUsage();
    const used = usage.planCredits! - usage.remainingCredits;
    expect(used).toBeGreaterThan(0);
    const before = Date.now();
    const history = await firecrawl.getCreditUsageHistorical();
    const after = Date.now();
    expect(history.success).toBe(true);
    // Every page this key had read falls in the periods; the last one is the month the call was made in.
    expect(history.periods.reduce((sum, period) => sum + period.creditsUsed, 0)).toBe(used);
    const current = history.periods.at(-1)!;
    expect(Date.parse(current.startDate!)).toBeLessThanOrEqual(after);
    expect(Date.parse(current.endDate!)).toBeGreaterThanOrEqual(before);
    expect(current.startDate).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    expect(history.periods.every((period) => period.apiKey === undefined)).toBe(true);

    const byKey = await firecrawl.getCreditUsageHistorical(true);
    expect(byKey.periods.map((period) => period.apiKey)).toEqual(history.periods.map(() => keyPrincipalId(TEST_KEY)));
    const legacy = await v1.getCreditUsageHistorical(true);
    if (!legacy.success || !('periods' in legacy)) throw new Error('v1 historical credit usage failed');
    expect(legacy.periods).toEqual(byKey.periods);

    // Another key has read nothing: its current month, with no credits.
    const others = await other.getCreditUsageHistorical(true);
    expect(others.periods).toEqual([
      { startDate: current.startDate, endDate: current.endDate, apiKey: keyPrincipalId(OTHER_KEY), creditsUsed: 0 },
    ]);
  }, 60_000);

  it('token usage answers the same periods with 0 tokens: Quarry does not count LLM tokens', async () => {
    const credits = await firecrawl.getCreditUsageHistorical();
    const tokens = await firecrawl.getTokenUsageHistorical();
    expect(tokens.success).toBe(true);
    expect(tokens.periods).toEqual(
      credits.periods.map(({ startDate, endDate }) => ({ startDate, endDate, tokensUsed: 0 })),
    );
    const legacy = await v1.getTokenUsageHistorical();
    if (!legacy.success || !('periods' in legacy)) throw new Error('v1 historical token usage failed');
    expect(legacy.periods).toEqual(tokens.periods);
  });

  it('the OpenAPI document lists both routes with byApiKey', async () => {
    const { body } = await quarry.get('/api/v1/openapi.json');
    for (const route of ['credit-usage', 'token-usage']) {
      const get = body.paths[`/api/v1/firecrawl/v2/team/${route}/historical`]?.get;
      expect(get?.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'byApiKey', in: 'query' })]),
      );
    }
  });

  it('without a key both are 401, and a bad byApiKey is a 400 naming it', async () => {
    for (const route of ['credit-usage', 'token-usage'])
      for (const version of ['v2', 'v1'])
        expect((await fetch(`${quarry.url}/firecrawl/${version}/team/${route}/historical`)).status).toBe(401);
    const bad = await quarry.get('/firecrawl/v2/team/credit-usage/historical?byApiKey=perhaps');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: expect.stringMatching(/byApiKey/) });
  });
});
