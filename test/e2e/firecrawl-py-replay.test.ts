/**
 * The requests firecrawl-py (4.x, the official Python client) sends, replayed against Quarry's
 * Firecrawl mount, and its answers held to the checks the client makes when it parses them. PyPI is
 * out of reach here, so the client itself cannot run; what it sends and checks is written down from
 * its source (the research notes on Firecrawl's clients, §2.2):
 * - every POST body carries `origin: "python-sdk@<version>"`, requests carry `x-idempotency-key`
 *   and `Authorization: Bearer <key>`, and the API URL may hold a path prefix;
 * - `CrawlJob.status` and `BatchScrapeJob.status` must be scraping | completed | failed | cancelled,
 *   `completed`, `total` and `creditsUsed` are integers, `expiresAt` an ISO date-time;
 * - a document's `statusCode` is an integer (numeric strings pass), `cacheState` hit | miss,
 *   `proxyUsed` basic | stealth; a map's `links` strings or objects with a url; a web search
 *   result has a url;
 * - crawl polling follows `next` after rebasing it: its path and query are kept and the API URL's
 *   scheme and host replace its own, so `next` must carry the mount's prefix;
 * - an error answer is read from `error` (with `code` and `details` when present).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePagePath } from '../sandbox/firecrawl-site.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { startFirecrawlWeb, type FirecrawlWeb } from './firecrawl-web.js';
import { until } from '../sandbox/until.js';
import { TEST_KEY, type RunningQuarry } from './harness.js';

const PAGES = 25;
const ORIGIN = 'python-sdk@4.54.0';

let site: FirecrawlWeb;
let web: SandboxWeb;
let quarry: RunningQuarry;
let apiUrl: string;

beforeAll(async () => {
  site = await startFirecrawlWeb({ pages: PAGES, privatePages: 2, listed: [1, 2] });
  ({ web, quarry } = site);
  apiUrl = `${quarry.url}/firecrawl`;
}, 60_000);

afterAll(async () => {
  await site?.close();
});

let idempotency = 0;
/** One request as the Python client's HTTP layer builds it (requests, JSON, bearer key, origin in POST bodies). */
async function py(method: 'GET' | 'POST' | 'DELETE', path: string, body?: Record<string, unknown>): Promise<any> {
  const url = path.startsWith('http') ? path : `${apiUrl}${path}`;
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
      'x-idempotency-key': `py-replay-${++idempotency}`,
      'user-agent': 'python-requests/2.32.3',
    },
    ...(method === 'POST' ? { body: JSON.stringify({ ...body, origin: ORIGIN }) } : {}),
  });
  return { status: response.status, body: await response.json() };
}

/** What firecrawl-py's pydantic models refuse in a document (v2/types.py, utils/normalize.py). */
function documentProblems(document: any, where: string): string[] {
  const problems: string[] = [];
  const metadata = document?.metadata;
  if (!metadata || typeof metadata !== 'object') return [`${where}.metadata is missing`];
  if (metadata.statusCode !== undefined && !Number.isInteger(Number(metadata.statusCode)))
    problems.push(`${where}.metadata.statusCode ${JSON.stringify(metadata.statusCode)} is not an integer`);
  if (metadata.cacheState !== undefined && !['hit', 'miss'].includes(metadata.cacheState))
    problems.push(`${where}.metadata.cacheState ${JSON.stringify(metadata.cacheState)}`);
  if (metadata.proxyUsed !== undefined && !['basic', 'stealth'].includes(metadata.proxyUsed))
    problems.push(`${where}.metadata.proxyUsed ${JSON.stringify(metadata.proxyUsed)}`);
  if (
    document.links !== undefined &&
    !(Array.isArray(document.links) && document.links.every((l: unknown) => typeof l === 'string'))
  )
    problems.push(`${where}.links is not a list of strings`);
  return problems;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What CrawlJob / BatchScrapeJob refuse (status literals, integer counters, ISO expiresAt). */
function jobProblems(job: any): string[] {
  const problems: string[] = [];
  if (!['scraping', 'completed', 'failed', 'cancelled'].includes(job.status)) problems.push(`status ${job.status}`);
  for (const name of ['completed', 'total', 'creditsUsed'])
    if (!Number.isInteger(job[name])) problems.push(`${name} ${JSON.stringify(job[name])} is not an integer`);
  if (
    typeof job.expiresAt !== 'string' ||
    !ISO_DATE_TIME.test(job.expiresAt) ||
    Number.isNaN(Date.parse(job.expiresAt))
  )
    problems.push(`expiresAt ${JSON.stringify(job.expiresAt)} is not an ISO date-time`);
  if (job.next !== undefined && job.next !== null && typeof job.next !== 'string')
    problems.push('next is not a string');
  if (!Array.isArray(job.data)) problems.push('data is not a list');
  else job.data.forEach((d: unknown, i: number) => problems.push(...documentProblems(d, `data[${i}]`)));
  return problems;
}

/** firecrawl-py's rebasing of `next`: the path and query kept, the API URL's scheme and host put in. */
function rebased(next: string): string {
  const given = new URL(next);
  const api = new URL(apiUrl);
  return `${api.protocol}//${api.host}${given.pathname}${given.search}`;
}

/** Polls a job as the client's waiter does, then follows `next` to the end, checking every page. */
async function pollToEnd(kind: 'crawl' | 'batch/scrape', id: string): Promise<any[]> {
  const first = await until(
    `the ${kind} job ${id} to finish`,
    async () => {
      const answer = await py('GET', `/v2/${kind}/${id}`);
      expect(answer.status).toBe(200);
      expect(jobProblems(answer.body)).toEqual([]);
      return answer.body.status === 'scraping' ? undefined : answer.body;
    },
    90_000,
    250,
  );
  expect(first.status).toBe('completed');
  const documents = [...first.data];
  let next: string | undefined = first.next;
  while (next) {
    expect(new URL(next).pathname.startsWith('/firecrawl/v2/')).toBe(true);
    const page = await py('GET', rebased(next));
    expect(page.status).toBe(200);
    expect(jobProblems(page.body)).toEqual([]);
    documents.push(...page.body.data);
    next = page.body.next;
  }
  return documents;
}

describe('firecrawl-py request shapes, replayed', () => {
  it('scrape: a Document the client parses', async () => {
    const url = `${web.url}${sitePagePath(1)}`;
    const answer = await py('POST', '/v2/scrape', { url, formats: ['markdown', 'links'], onlyMainContent: true });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(documentProblems(answer.body.data, 'data')).toEqual([]);
    expect(answer.body.data.markdown).toContain('diamond wire');
  });

  it('map: links the client reads as strings or objects with a url', async () => {
    const answer = await py('POST', '/v2/map', { url: `${web.url}/fc/`, limit: 50 });
    expect(answer.status).toBe(200);
    const links = answer.body.links as Array<string | { url?: unknown }>;
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(typeof link === 'string' || typeof link.url === 'string').toBe(true);
  });

  it('search: data.web results, each with a url', async () => {
    const answer = await py('POST', '/v2/search', {
      query: 'diamond wire quarry',
      limit: 2,
      sources: [{ type: 'web' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.web.length).toBeGreaterThan(0);
    for (const result of answer.body.data.web) expect(typeof result.url).toBe('string');
  });

  it('crawl: start, poll to completed, follow the rebased next through every page, each page once', async () => {
    const started = await py('POST', '/v2/crawl', {
      url: `${web.url}/fc/`,
      limit: 100,
      sitemap: 'include',
      ignoreQueryParameters: false,
      scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ success: true, id: expect.any(String), url: expect.any(String) });
    const documents = await pollToEnd('crawl', started.body.id);
    const urls = documents.map((d) => d.metadata.sourceURL);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toEqual(
      expect.arrayContaining([`${web.url}${sitePagePath(0)}`, `${web.url}${sitePagePath(PAGES - 1)}`]),
    );
    expect(urls.some((u) => u.includes('/fc/private/'))).toBe(false);
    const errors = await py('GET', `/v2/crawl/${started.body.id}/errors`);
    expect(errors.status).toBe(200);
    expect(Array.isArray(errors.body.errors) && Array.isArray(errors.body.robotsBlocked)).toBe(true);
  });

  it('batch scrape: start with the scrape options flat, poll to completed', async () => {
    const urls = [1, 2, 3].map((i) => `${web.url}${sitePagePath(i)}`);
    const started = await py('POST', '/v2/batch/scrape', { urls, formats: ['markdown'], ignoreInvalidURLs: true });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ success: true, id: expect.any(String) });
    const documents = await pollToEnd('batch/scrape', started.body.id);
    expect(documents.map((d) => d.metadata.sourceURL).sort()).toEqual(urls.sort());
  });

  it('credit usage and an error the client maps by status, read from error', async () => {
    const usage = await py('GET', '/v2/team/credit-usage');
    expect(usage.status).toBe(200);
    expect(usage.body.success).toBe(true);
    const refused = await py('POST', '/v2/scrape', { url: 'not a url' });
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
    expect(typeof refused.body.error).toBe('string');
    const missing = await py('GET', `/v2/crawl/crawl_${'0'.repeat(24)}`);
    expect(missing.status).toBe(404);
    expect(typeof missing.body.error).toBe('string');
  });
});
