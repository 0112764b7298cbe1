/**
 * Firecrawl's crawl watcher over a WebSocket at the crawl's status route: firecrawl-js v2 `watcher()` (crawl and
 * batch scrape) and v1 `crawlUrlAndWatch` follow a crawl of slow pages to its end, each page once, with no status
 * polling (the status route's call count stays put); the raw messages are catchup, document…, done; a wrong key
 * fails the handshake, another key's job is an error; on Redis a watcher on one instance follows a crawl running on
 * another (which alone runs jobs).
 */
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { onTwoInstances, startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const OTHER_KEY = 'other-key-5555566666';
/** One page at a time and never from the page cache, so each crawl reads the slow pages while it is watched. */
const FRESH = { maxConcurrency: 1, scrapeOptions: { maxAge: 0 } };
const PAGES = 6;

let web: SandboxWeb;
let quarry: RunningQuarry;
let firecrawl: Firecrawl;

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} is one of the watched pages, with enough words in it to count as content for the reader.</p>` +
  `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</main></body></html>`;
const slowPaths = Array.from({ length: PAGES }, (_, i) => `/w/page-${i}`);
const siteUrls = () => [`${web.url}/w/`, ...slowPaths.map((path) => `${web.url}${path}`)].sort();

type Doc = { metadata?: { sourceURL?: string } };
const sourceUrls = (docs: Doc[]) => docs.map((doc) => doc.metadata?.sourceURL ?? '').sort();

/** Calls of a capability over HTTP so far, from the metrics (a polling watcher would add status calls). */
async function httpCalls(target: RunningQuarry, capability: string): Promise<number> {
  const text = await (await fetch(`${target.url}/metrics`)).text();
  const pattern = new RegExp(`^quarry_capability_calls_total\\{capability="${capability}",host="http"[^}]*\\} (\\d+)`);
  return text
    .split('\n')
    .map((line) => pattern.exec(line))
    .reduce((sum, match) => sum + (match ? Number(match[1]) : 0), 0);
}

beforeAll(async () => {
  web = await startSandboxWeb();
  web.addPage('/w/', page('Watched index', slowPaths), { contentType: 'text/html; charset=utf-8' });
  for (const path of slowPaths)
    web.addPage(path, page(`Watched ${path}`), { contentType: 'text/html; charset=utf-8', delayMs: 150 });
  quarry = await startQuarry(web, {}, { apiKeys: [TEST_KEY, OTHER_KEY] });
  firecrawl = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

/** Runs a v2 watcher to its end: the documents it emitted and the done event. */
async function watch(client: Firecrawl, id: string, kind: 'crawl' | 'batch' = 'crawl') {
  const watcher = client.watcher(id, { kind, timeout: 60 });
  const documents: Doc[] = [];
  let done: { status: string; total?: number; completed?: number } | undefined;
  let error: unknown;
  watcher.on('document', (doc: Doc) => documents.push(doc));
  watcher.on('done', (event: { status: string }) => (done = event));
  watcher.on('error', (event: unknown) => (error = event));
  await watcher.start();
  return { documents, done, error };
}

describe('firecrawl-js v2 watcher', () => {
  it('follows a running crawl over the WebSocket: every page once, then done; no status polling', async () => {
    const polledBefore = await httpCalls(quarry, 'firecrawl.crawl_status_v2');
    const started = await firecrawl.startCrawl(`${web.url}/w/`, FRESH);
    const { documents, done, error } = await watch(firecrawl, started.id);
    expect(error).toBeUndefined();
    expect(done).toMatchObject({ status: 'completed', total: PAGES + 1, completed: PAGES + 1 });
    expect(sourceUrls(documents)).toEqual(siteUrls());
    expect(await httpCalls(quarry, 'firecrawl.crawl_status_v2')).toBe(polledBefore);
  }, 60_000);

  it('follows a batch scrape at /v2/batch/scrape/:id', async () => {
    const urls = slowPaths.slice(0, 3).map((path) => `${web.url}${path}`);
    const started = await firecrawl.startBatchScrape(urls, { options: { maxAge: 0 } });
    const { documents, done } = await watch(firecrawl, started.id, 'batch');
    expect(done?.status).toBe('completed');
    expect(sourceUrls(documents)).toEqual(urls.sort());
  }, 60_000);

  it('another key: the job is not found and the watcher reports an error', async () => {
    const done = await firecrawl.crawl(`${web.url}/w/`, { limit: 1, pollInterval: 1 });
    const other = new Firecrawl({ apiKey: OTHER_KEY, apiUrl: `${quarry.url}/firecrawl` });
    const watcher = other.watcher(done.id!, { timeout: 5 });
    let error: { error?: string } | undefined;
    watcher.on('error', (event: { error?: string }) => (error = event));
    await watcher.start();
    watcher.close();
    expect(error?.error).toMatch(/no crawl job/);
  }, 60_000);
});

describe('the raw protocol', () => {
  const socketUrl = (target: RunningQuarry, path: string) => `${target.url.replace(/^http/, 'ws')}${path}`;

  it('catchup, a document per page after it, then done; the key is the subprotocol', async () => {
    const started = await firecrawl.startCrawl(`${web.url}/w/`, FRESH);
    const socket = new WebSocket(socketUrl(quarry, `/firecrawl/v2/crawl/${started.id}`), TEST_KEY);
    const messages: Array<{ type: string; data?: { status?: string; data?: Doc[] } & Doc }> = [];
    const closed = new Promise<{ code: number }>((resolve) => {
      socket.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
      socket.onclose = (event) => resolve({ code: event.code });
    });
    expect((await closed).code).toBe(1000);
    expect(messages[0]?.type).toBe('catchup');
    expect(messages.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed' } });
    const documents = [
      ...(messages[0]?.data?.data ?? []),
      ...messages.filter((m) => m.type === 'document').map((m) => m.data as Doc),
    ];
    expect(sourceUrls(documents)).toEqual(siteUrls());
    // Connected while the slow pages were being read: some came as they were read, not all in the catchup.
    expect(messages.filter((m) => m.type === 'document').length).toBeGreaterThan(0);
  }, 60_000);

  it('a wrong key fails the handshake', async () => {
    const socket = new WebSocket(socketUrl(quarry, '/firecrawl/v2/crawl/crawl_0123456789abcdef'), 'wrong-key-000');
    const outcome = await new Promise<string>((resolve) => {
      socket.onopen = () => resolve('open');
      socket.onerror = () => resolve('error');
    });
    expect(outcome).toBe('error');
  });
});

describe('firecrawl-js v1 crawlUrlAndWatch', () => {
  it('emits each page as a document and done from the close frame', async () => {
    const v1 = new FirecrawlAppV1({ apiKey: TEST_KEY, apiUrl: `${quarry.url}/firecrawl` });
    const watcher = await v1.crawlUrlAndWatch(`${web.url}/w/`, { maxConcurrency: 1 });
    const documents: Doc[] = [];
    watcher.addEventListener('document', (event) => {
      documents.push((event as CustomEvent<Doc>).detail);
    });
    const status = await new Promise<string>((resolve) => {
      watcher.addEventListener('done', (event) => resolve((event as CustomEvent<{ status: string }>).detail.status));
      watcher.addEventListener('error', (event) => resolve(`error: ${JSON.stringify((event as CustomEvent).detail)}`));
    });
    expect(status).toBe('completed');
    expect(sourceUrls(documents)).toEqual(siteUrls());
  }, 60_000);
});

describe.runIf(hasRedisServer)('on Redis', () => {
  it(
    'a watcher on one instance follows a crawl running on another',
    () =>
      onTwoInstances(web, async (running, watching) => {
        // Only the first instance runs jobs: the second's job runner is stopped, so it can only watch.
        await (watching.app.services.jobs as unknown as { stop(graceMs: number): Promise<void> }).stop(0);
        const runner = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${running.url}/firecrawl` });
        const watcherClient = new Firecrawl({ apiKey: TEST_KEY, apiUrl: `${watching.url}/firecrawl` });
        const started = await runner.startCrawl(`${web.url}/w/`, FRESH);
        const { documents, done } = await watch(watcherClient, started.id);
        expect(done?.status).toBe('completed');
        expect(sourceUrls(documents)).toEqual(siteUrls());
        // The crawl ran where it started: the instance that watched runs no jobs.
        expect((await runner.getCrawlStatus(started.id, { autoPaginate: false })).status).toBe('completed');
      }),
    90_000,
  );
});
