/**
 * The site crawl's options beyond breadth-first: a rank (best first), a stop hook, a start page already read, links
 * robots.txt refuses (left out and reported, or listed failed) and redirect targets, on a local site read through
 * the outbound client.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { startLocalServer, testPolicy, type LocalServer } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { PageReadError } from '../scrape/page-failures.js';
import { linksOf } from './page-links.js';
import { crawlSite, type PageOutcome, type PageRead, type SiteCrawlOptions } from './site-crawl.js';

const SITE: Record<string, { links?: string[]; status?: number; location?: string }> = {
  '/': { links: ['/a', '/b', '/c', '/private/x', '/moved'] },
  '/a': { links: ['/a1', '/'] },
  '/b': { links: ['/b1'] },
  '/c': { links: [] },
  '/a1': { links: [] },
  '/b1': { links: [] },
  '/private/x': { links: [] },
  '/moved': { status: 302, location: '/landing' },
  '/landing': { links: ['/a'] },
};

let server: LocalServer;
let client: OutboundClient;
/** Paths the site was asked for, robots.txt aside. */
let requested: string[] = [];

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/robots.txt') {
      response.setHeader('content-type', 'text/plain');
      response.end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    requested.push(path);
    const page = SITE[path];
    response.statusCode = page ? (page.status ?? 200) : 404;
    if (page?.location) response.setHeader('location', page.location);
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><body>${(page?.links ?? []).map((href) => `<a href="${href}">x</a>`)}</body>`);
  });
  const policy = testPolicy({ respectRobots: true, allowHosts: [`127.0.0.1:${server.port}`] });
  client = new OutboundClient(policy, silentLogger());
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

beforeEach(() => {
  requested = [];
});

const pathOf = (url: string): string => new URL(url).pathname;

async function readPage(url: string, signal: AbortSignal): Promise<PageRead<string>> {
  const response = await client.fetch({ url, purpose: 'page', signal });
  if (response.status !== 200) throw new PageReadError('HTTP_ERROR', `${url} answered HTTP ${response.status}`);
  const links = linksOf(response.body, response.url).map((link) => link.href);
  return { finalUrl: response.url, links, value: pathOf(response.url) };
}

/** A crawl of the whole site, every page read, one at a time; heard lists the pages afterPage was told of. */
function crawl(extra: Partial<SiteCrawlOptions<string>> = {}, heard: Array<PageOutcome<string>> = []) {
  return crawlSite<string>({
    baseUrl: `${server.origin}/`,
    maxDepth: 3,
    maxBreadth: 100,
    limit: 100,
    readAll: true,
    concurrency: 1,
    timeoutMs: 10_000,
    respectRobots: true,
    fetcher: client,
    read: readPage,
    decide: async (urls) => urls.map(() => 'follow'),
    afterPage: (outcome) => void heard.push(outcome),
    ...extra,
  });
}

describe('crawlSite', () => {
  it('is breadth-first by default and best first with a rank, equal scores in the order found', async () => {
    const fifo: Array<PageOutcome<string>> = [];
    await crawl({}, fifo);
    expect(fifo.map((o) => pathOf(o.url))).toEqual(['/', '/a', '/b', '/c', '/moved', '/a1', '/b1']);

    const scores: Record<string, number> = { '/c': 3, '/b': 2, '/b1': 5 };
    const best: Array<PageOutcome<string>> = [];
    const result = await crawl(
      { rank: async (urls) => urls.map((url) => scores[url.pathname] ?? 0), listRedirects: false },
      best,
    );
    // /b1 (5) is found on /b and then beats everything pending; /a, /moved and /a1 tie at 0 in the order found.
    expect(best.map((o) => pathOf(o.url))).toEqual(['/', '/c', '/b', '/b1', '/a', '/moved', '/a1']);
    expect(best.map((o) => o.priority)).toEqual([undefined, 3, 2, 5, 0, 0, 0]);
    expect(result.urls.map((u) => pathOf(u.url))).toEqual(['/', '/a', '/b', '/c', '/moved', '/b1', '/a1']);
  });

  it('stops when the stop hook says so, before reading another page', async () => {
    const heard: Array<PageOutcome<string>> = [];
    const result = await crawl({ shouldStop: () => heard.length >= 2 }, heard);
    expect(heard.map((o) => pathOf(o.url))).toEqual(['/', '/a']);
    expect(requested).toEqual(['/', '/a']);
    expect(result.urls.filter((u) => u.page !== undefined)).toHaveLength(2);
  });

  it('uses a start page already read without requesting it, and follows its links', async () => {
    const heard: Array<PageOutcome<string>> = [];
    const start: PageRead<string> = { finalUrl: `${server.origin}/`, links: [`${server.origin}/c`], value: 'given' };
    const result = await crawl({ start }, heard);
    expect(requested).toEqual(['/c']);
    expect(heard.map((o) => o.page)).toEqual(['given', '/c']);
    expect(result.urls.map((u) => pathOf(u.url))).toEqual(['/', '/c']);
  });

  it('leaves links robots.txt refuses out and reports them, or lists them failed, never requesting them', async () => {
    const blocked: string[] = [];
    const skipped = await crawl({ onRobotsBlocked: (urls) => blocked.push(...urls) });
    expect(blocked).toEqual([`${server.origin}/private/x`]);
    expect(skipped.urls.map((u) => u.url)).not.toContain(`${server.origin}/private/x`);

    const heard: Array<PageOutcome<string>> = [];
    const listed = await crawl({ refusedLinks: 'list' }, heard);
    const refusal = {
      code: 'ROBOTS_DISALLOWED',
      message: `robots.txt of ${server.origin} disallows ${server.origin}/private/x for Quarry`,
    };
    expect(listed.urls).toContainEqual({ url: `${server.origin}/private/x`, depth: 1, error: refusal });
    expect(heard).toContainEqual({ url: `${server.origin}/private/x`, depth: 1, error: refusal });
    expect(requested).not.toContain('/private/x');
  });

  it("keeps a reader's failure code, and lists where a page redirected to without reading it again", async () => {
    const result = await crawl({
      listRedirects: true,
      read: async (url, signal) => {
        if (pathOf(url) === '/c') throw new PageReadError('BLOCKED', 'a consent wall');
        return readPage(url, signal);
      },
    });
    expect(result.urls.find((u) => pathOf(u.url) === '/c')?.error).toEqual({
      code: 'BLOCKED',
      message: 'a consent wall',
    });
    expect(result.urls).toContainEqual({ url: `${server.origin}/landing`, depth: 1, page: '/landing' });
    expect(requested.filter((path) => path === '/landing')).toHaveLength(1);
  });
});
