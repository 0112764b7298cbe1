/**
 * robots.txt in every area that reads pages: a local site disallows
 * /private/ for every agent, a local engine lists its private page next to
 * an open one, and each area's public path is asked to read it — by URL where
 * the area takes URLs, through search results where it reads what a search
 * finds. The site records every request: the private page is never asked for,
 * and each answer says why (ROBOTS_DISALLOWED, or the area's failure entry
 * naming robots.txt). Rendering needs Chromium (/usr/bin/chromium).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { findChromium } from '../../services/browser/find-chromium.js';
import { startLocalSearch, type LocalSearch } from '../sandbox/local-search.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const ROBOTS = /robots\.txt/;
const TOPIC = 'sourdough starter feeding schedule';

let web: SandboxWeb;
let search: LocalSearch;
let quarry: RunningQuarry;
let open: string;
let hidden: string;

function article(title: string, links: string[] = []): string {
  const prose =
    `${title}: a sourdough starter needs feeding on a schedule, flour and water in equal weights, kept warm so the yeast stays active. `.repeat(
      10,
    );
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${prose}</p>
${links.map((href) => `<p><a href="${href}">More on ${title}</a></p>`).join('\n')}</article></main></body></html>`;
}

/** Requests the site received for the private page (robots.txt itself is fine to read). */
function privateRequests(): string[] {
  return web
    .requestLog()
    .map((entry) => entry.path)
    .filter((path) => path.startsWith('/private/'));
}

/** Reads of the open page so far: an area that reads what a search finds reads it too. */
function openReads(): number {
  return web.requestLog().filter((entry) => entry.path.startsWith('/open/')).length;
}

beforeAll(async () => {
  web = await startSandboxWeb();
  // robots.txt is read once per origin and remembered, so it is set before any page is fetched.
  web.setRobots('User-agent: *\nDisallow: /private/\n');
  hidden = web.addPage('/private/starter-notes', article('Private starter notes'));
  open = web.addPage('/open/starter-guide', article('Open starter guide', ['/private/starter-notes']));
  search = await startLocalSearch([
    { url: open, title: 'Open starter guide', text: `${TOPIC} open guide` },
    { url: hidden, title: 'Private starter notes', text: `${TOPIC} private notes` },
  ]);
  const config: ConfigInput = {
    customEngines: [search.engineConfig('local_web', ['general'])],
    search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
    outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host], retries: 0, respectRobots: true },
  } as ConfigInput;
  quarry = await startQuarry(web, config);
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await search?.close();
  await web?.close();
});

describe('robots.txt in every area that reads pages', () => {
  it('has Chromium for the rendering paths', () => {
    expect(
      findChromium(),
      'install chromium (apt-get install chromium): the render paths must be tested',
    ).not.toBeNull();
  });

  it('search with scrape_content', async () => {
    const res = await quarry.post('/api/v1/search/', { query: TOPIC, engines: ['local_web'], scrape_content: true });
    expect(res.status).toBe(200);
    const result = res.body.results.find((r: any) => r.url === hidden);
    expect(result?.scraped_content?.failure_reason).toMatch(ROBOTS);
    expect(privateRequests()).toEqual([]);
  });

  it('enhanced scrape, static and rendered', async () => {
    for (const javascript_rendering of [false, true]) {
      const res = await quarry.post('/api/v1/enhanced/scrape', {
        urls: [hidden, open],
        javascript_rendering,
        cache_mode: 'bypass',
      });
      expect(res.status).toBe(200);
      expect(res.body.scraped_content[0]).toMatchObject({
        extraction_success: false,
        error_code: 'ROBOTS_DISALLOWED',
        rendered: javascript_rendering,
      });
      expect(res.body.scraped_content[1].extraction_success).toBe(true);
      expect(res.body.metadata.failed_urls).toEqual([
        expect.objectContaining({ url: hidden, error_code: 'ROBOTS_DISALLOWED' }),
      ]);
    }
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('enhanced search, fetched, rendered and virtually scrolled', async () => {
    for (const js_mode of [false, true]) {
      const res = await quarry.post('/api/v1/enhanced/search', {
        query: TOPIC,
        engines: ['local_web'],
        scrape_content: true,
        content_filter: 'pruning',
        js_mode,
        virtual_scrolling: js_mode,
      });
      expect(res.status).toBe(200);
      const result = res.body.results.find((r: any) => r.url === hidden);
      expect(result?.scraped_content?.failure_reason).toMatch(ROBOTS);
      // The reader's failure code, not a generic UPSTREAM_FAILED: for the fetch, and for the scroll it refused.
      expect(result?.enhanced?.status).toBe('failed');
      expect(result?.enhanced?.errors).toContainEqual(
        expect.objectContaining({ step: 'fetch', code: 'ROBOTS_DISALLOWED', message: expect.stringMatching(ROBOTS) }),
      );
      if (js_mode)
        expect(result?.enhanced?.errors).toContainEqual(
          expect.objectContaining({ step: 'virtual_scroll', code: 'ROBOTS_DISALLOWED' }),
        );
    }
    expect(privateRequests()).toEqual([]);
  }, 90_000);

  it("enhanced search's adaptive crawl keeps the reader's code for a disallowed link", async () => {
    const res = await quarry.post('/api/v1/enhanced/search', {
      query: TOPIC,
      engines: ['local_web'],
      adaptive_crawling: true,
      cache_ttl: 0,
    });
    expect(res.status).toBe(200);
    const crawl = res.body.results.find((r: any) => r.url === open)?.enhanced?.adaptive_crawl;
    expect(crawl?.pages).toContainEqual(
      expect.objectContaining({
        url: hidden,
        status: 'failed',
        error_code: 'ROBOTS_DISALLOWED',
        error: expect.stringMatching(ROBOTS),
      }),
    );
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('agent extract (basic and advanced)', async () => {
    for (const extract_depth of ['basic', 'advanced']) {
      const res = await quarry.post('/api/v1/agent/extract', { urls: [hidden, open], extract_depth });
      expect(res.status).toBe(200);
      expect(res.body.failed_results).toEqual([{ url: hidden, error: expect.stringMatching(ROBOTS) }]);
    }
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('agent crawl and map leave the disallowed link out, and say why for a disallowed start', async () => {
    for (const path of ['/api/v1/agent/crawl', '/api/v1/agent/map']) {
      const res = await quarry.post(path, { url: open, max_depth: 2 });
      expect(res.status).toBe(200);
      const listed = (res.body.results as Array<string | { url: string }>).map((r) =>
        typeof r === 'string' ? r : r.url,
      );
      expect(listed).toContain(open);
      expect(listed).not.toContain(hidden);
      const refused = await quarry.post(path, { url: hidden });
      expect(refused.status).toBe(200);
      expect(refused.body.results).toEqual([]);
      expect(refused.body.failed_results).toEqual([{ url: hidden, error: expect.stringMatching(ROBOTS) }]);
    }
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('firecrawl crawl and batch scrape leave the disallowed page unread and list it in robotsBlocked', async () => {
    const finished = (path: string) =>
      until(
        `${path} to finish`,
        async () => {
          const { body } = await quarry.get(path);
          return body.status !== 'scraping' ? body : null;
        },
        30_000,
        50,
      );
    for (const [route, body] of [
      ['/firecrawl/v2/crawl', { url: open, crawlEntireDomain: true }],
      ['/firecrawl/v2/crawl', { url: hidden }],
      ['/firecrawl/v2/batch/scrape', { urls: [hidden, open] }],
    ] as const) {
      const started = await quarry.post(route, body);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const status = await finished(`${route}/${started.body.id}`);
      const read = (status.data as Array<{ metadata: { sourceURL: string } }>).map((d) => d.metadata.sourceURL);
      expect(read).not.toContain(hidden);
      const errors = await quarry.get(`${route}/${started.body.id}/errors`);
      expect(errors.body.robotsBlocked).toEqual([hidden]);
    }
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('exa contents', async () => {
    const res = await quarry.post('/api/v1/exa/contents', { urls: [hidden, open] });
    expect(res.status).toBe(200);
    expect(res.body.statuses.find((s: any) => s.id === hidden)).toMatchObject({
      status: 'error',
      error: { tag: 'SOURCE_NOT_AVAILABLE', message: expect.stringMatching(ROBOTS) },
    });
    expect(privateRequests()).toEqual([]);
  });

  it('neural similar reads its source URL through the reader', async () => {
    const res = await quarry.post('/api/v1/neural/similar', { url: hidden });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'ROBOTS_DISALLOWED', message: expect.stringMatching(ROBOTS) });
    expect(privateRequests()).toEqual([]);
  });

  it('verify reads what its searches find through the reader', async () => {
    const before = openReads();
    const res = await quarry.post('/api/v1/verify/claim', {
      claim: 'A sourdough starter needs feeding on a schedule with flour and water',
      engines: ['local_web'],
    });
    expect(res.status).toBe(200);
    expect(openReads()).toBeGreaterThan(before);
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('agent search reads what its searches find through the reader', async () => {
    const before = openReads();
    const res = await quarry.post('/api/v1/agent/search', { query: TOPIC, include_raw_content: true });
    expect(res.status).toBe(200);
    const result = res.body.results.find((r: any) => r.url === hidden);
    if (result) expect(result.read).toBe(false);
    expect(openReads()).toBeGreaterThan(before);
    expect(privateRequests()).toEqual([]);
  }, 60_000);

  it('RAG research, add and search', async () => {
    const built = await quarry.post('/api/v1/rag/research', { topic: TOPIC, depth: 'quick', engines: ['local_web'] });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.sources.map((s: any) => s.url)).not.toContain(hidden);
    const added = await quarry.post('/api/v1/rag/corpora/add', { corpus_id: built.body.corpus_id, urls: [hidden] });
    expect(added.status).toBe(200);
    expect(added.body.failed).toEqual([{ url: hidden, error: expect.stringMatching(ROBOTS) }]);
    const searched = await quarry.post('/api/v1/rag/search', { query: TOPIC, engines: ['local_web'] });
    expect(searched.status).toBe(200);
    expect(searched.body.failed_results).toContainEqual({ url: hidden, error: expect.stringMatching(ROBOTS) });
    expect(privateRequests()).toEqual([]);
  }, 120_000);

  it('monitor deep analysis reads the new pages through the reader', async () => {
    const before = openReads();
    const created = await quarry.post('/api/v1/monitor/topics', {
      topic: TOPIC,
      keywords: ['sourdough'],
      deep_analysis: true,
      engines: ['local_web'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await quarry.post(`/api/v1/monitor/topics/${created.body.id}/check`, {});
    await until(
      'the monitor to run a check',
      async () => (await quarry.get(`/api/v1/monitor/topics/${created.body.id}`)).body.checks_run >= 1,
      30_000,
      200,
    );
    expect(openReads()).toBeGreaterThan(before);
    expect(privateRequests()).toEqual([]);
  }, 60_000);
});
