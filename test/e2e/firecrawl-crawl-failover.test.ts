/**
 * A Firecrawl crawl survives the instance running it: two `quarry serve` processes on one Redis,
 * a crawl started on the first over slow pages, the first SIGKILLed while it reads, and the crawl
 * completes through the second; its paged results (followed through `next`) hold every page of
 * the site exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sitePagePath, siteArticle } from '../sandbox/firecrawl-site.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { redisForThisSuite } from '../sandbox/redis-hooks.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { fleet } from './quarry-process.js';

const KEY = 'crawl-failover-key-0123456789';
const PAGES = 40;

let web: SandboxWeb;
const instances = fleet(() => web, [KEY]);

/** Requests the site has answered for its article pages. */
const pagesRead = () => web.requestLog().filter((r) => r.path.startsWith('/fc/page-')).length;

beforeAll(async () => {
  web = await startSandboxWeb();
  // The index links every page; each page is slow, so the crawl is still reading when its instance dies.
  const all = Array.from({ length: PAGES }, (_, i) => sitePagePath(i));
  web.addPage('/fc/', siteArticle(9999, all), { contentType: 'text/html; charset=utf-8' });
  for (let i = 0; i < PAGES; i++)
    web.addPage(sitePagePath(i), siteArticle(i, []), { contentType: 'text/html; charset=utf-8', delayMs: 400 });
});

afterAll(async () => {
  await web?.close();
  instances.removeDirs();
});

afterEach(async () => {
  await instances.killAll();
});

describe.runIf(hasRedisServer)('a Firecrawl crawl on two instances of one Redis', () => {
  const redis = redisForThisSuite();
  // Short lock and stall intervals: the survivor takes the crawl over within about 10 s, not 50.
  const shared = () => ({
    env: { QUARRY_REDIS_URL: redis.url },
    config: { jobs: { lockMs: 5000, stalledIntervalMs: 2000 } },
  });

  it('completes through the other instance after the one running it is SIGKILLed, every page once', {
    timeout: 180_000,
  }, async () => {
    const [a, b] = await Promise.all([instances.start(shared()), instances.start(shared())]);
    const started = await a.post('/firecrawl/v2/crawl', {
      url: `${web.url}/fc/`,
      limit: 100,
      scrapeOptions: { formats: ['markdown'] },
      origin: 'failover-test',
    });
    expect(started.status).toBe(200);
    const id = started.body.id as string;
    // Kill the instance once the crawl is reading pages (read on the site, not a timer), well before it is done.
    await until('the crawl to be reading pages', async () => pagesRead() >= 3, 60_000);
    const readBeforeKill = pagesRead();
    expect(readBeforeKill).toBeLessThan(PAGES);
    a.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');

    const done = await until(
      'the crawl to complete on the surviving instance',
      async () => {
        const status = await b.get(`/firecrawl/v2/crawl/${id}`);
        if (status.status !== 200) return undefined;
        expect(status.body.status).not.toBe('failed');
        return status.body.status === 'completed' ? status.body : undefined;
      },
      150_000,
      500,
    );
    const urls: string[] = done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL);
    let next: string | undefined = done.next;
    while (next) {
      const { pathname, search } = new URL(next);
      const page = await b.get(pathname + search);
      expect(page.status).toBe(200);
      urls.push(...page.body.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL));
      next = page.body.next;
    }
    const expected = [`${web.url}/fc/`, ...Array.from({ length: PAGES }, (_, i) => `${web.url}${sitePagePath(i)}`)];
    expect(urls.length).toBe(new Set(urls).size);
    expect([...urls].sort()).toEqual(expected.sort());
    expect(done.completed).toBe(expected.length);
  });
});
