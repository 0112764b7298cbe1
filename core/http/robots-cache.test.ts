import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { startLocalServer, testPolicy, type LocalServer } from './fixtures/local-server.js';
import { OutboundClient } from './outbound-client.js';
import { RobotsCache, type RobotsReader } from './robots-cache.js';

const servers: LocalServer[] = [];
const clients: OutboundClient[] = [];

async function siteWithRobots(robots: {
  status: number;
  body: string;
}): Promise<{ server: LocalServer; outbound: OutboundClient }> {
  const server = await startLocalServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.statusCode = robots.status;
      response.end(robots.body);
      return;
    }
    response.end(`page ${request.url}`);
  });
  servers.push(server);
  const outbound = new OutboundClient(
    testPolicy({ respectRobots: true, allowHosts: [`127.0.0.1:${server.port}`] }),
    silentLogger(),
  );
  clients.push(outbound);
  return { server, outbound };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A robots.txt response as RobotsCache's fetcher answers it. */
function robotsFile(
  status: number,
  text: string,
): { status: number; bytes: Uint8Array; headers: Record<string, string> } {
  return { status, bytes: Buffer.from(text), headers: {} };
}

const RULES = 'User-agent: *\nDisallow: /private\n\nUser-agent: Quarry\nDisallow: /no-quarry\nDisallow: /private\n';

describe('robots.txt in OutboundClient', () => {
  it('refuses disallowed pages for purpose "page" and fetches robots.txt once per origin', async () => {
    const { server, outbound } = await siteWithRobots({ status: 200, body: RULES });
    await expect(outbound.fetch({ url: `${server.origin}/private/a`, purpose: 'page' })).rejects.toMatchObject({
      code: 'ROBOTS_DISALLOWED',
    });
    await expect(outbound.fetch({ url: `${server.origin}/no-quarry`, purpose: 'page' })).rejects.toMatchObject({
      code: 'ROBOTS_DISALLOWED',
    });
    const allowed = await outbound.fetch({ url: `${server.origin}/public`, purpose: 'page' });
    expect(allowed.body).toBe('page /public');
    expect(server.requests.filter((path) => path === '/robots.txt')).toHaveLength(1);
    expect(server.requests).not.toContain('/private/a');
  });

  it('ignores robots.txt for purpose "engine"', async () => {
    const { server, outbound } = await siteWithRobots({ status: 200, body: RULES });
    const response = await outbound.fetch({ url: `${server.origin}/private/a`, purpose: 'engine' });
    expect(response.body).toBe('page /private/a');
    expect(server.requests).not.toContain('/robots.txt');
  });

  it('shares one robots.txt fetch between concurrent page fetches', async () => {
    const { server, outbound } = await siteWithRobots({ status: 200, body: RULES });
    await Promise.all([1, 2, 3].map((n) => outbound.fetch({ url: `${server.origin}/p${n}`, purpose: 'page' })));
    expect(server.requests.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  it.each([404, 401, 403, 500, 503])('allows everything when robots.txt answers %i', async (status) => {
    const { server, outbound } = await siteWithRobots({ status, body: 'User-agent: *\nDisallow: /' });
    const response = await outbound.fetch({ url: `${server.origin}/private/a`, purpose: 'page' });
    expect(response.status).toBe(200);
  });
});

describe('RobotsCache', () => {
  it('remembers a 5xx only briefly, and a success for the full ttl', async () => {
    let status = 503;
    let fetches = 0;
    const cache = new RobotsCache(
      async () => {
        fetches++;
        return robotsFile(status, 'User-agent: *\nDisallow: /x');
      },
      { failureTtlMs: 0, ttlMs: 60_000 },
    );
    expect(await cache.isAllowed('http://a.example/x')).toBe(true);
    status = 200;
    expect(await cache.isAllowed('http://a.example/x')).toBe(false);
    expect(await cache.isAllowed('http://a.example/y')).toBe(true);
    expect(fetches).toBe(2);
  });

  it('allows everything when robots.txt cannot be fetched', async () => {
    const cache = new RobotsCache(async () => {
      throw new Error('connection refused');
    });
    expect(await cache.isAllowed('http://down.example/anything')).toBe(true);
  });

  it('lets a waiting caller give up without spoiling the shared fetch', async () => {
    let finish: (value: ReturnType<typeof robotsFile>) => void = () => undefined;
    const cache = new RobotsCache(() => new Promise((resolve) => (finish = resolve)));
    const controller = new AbortController();
    const impatient = cache.isAllowed('http://slow.example/x', controller.signal);
    const patient = cache.isAllowed('http://slow.example/x');
    controller.abort(new Error('gave up'));
    await expect(impatient).rejects.toThrow('gave up');
    finish(robotsFile(200, 'User-agent: *\nDisallow: /x'));
    expect(await patient).toBe(false);
  });
});

/** A fetched robots.txt whose text throws if anyone reads it: with a reader, only its bytes go anywhere. */
function undecodable(status = 200): ReturnType<typeof robotsFile> {
  return Object.defineProperty(robotsFile(status, 'User-agent: *\nDisallow: /'), 'body', {
    get: () => {
      throw new Error('robots.txt was decoded on the event loop');
    },
  });
}

/** A reader that answers fixed rules and records what it was asked. */
function fakeReader(
  rules: { text: string; count: number },
  overrides: Partial<RobotsReader> = {},
): RobotsReader & { checks: string[]; reads: number } {
  const reader = {
    checks: [] as string[],
    reads: 0,
    robotsRules: async () => {
      reader.reads++;
      return rules;
    },
    robotsAllowAll: async (_rules: unknown, urls: string[]) => {
      reader.checks.push(...urls);
      return urls.map((url) => !url.endsWith('/x'));
    },
    ...overrides,
  };
  return reader;
}

describe('RobotsCache with a reader (the worker pool)', () => {
  it('hands the bytes to the reader and matches its reduced rules here when they are few', async () => {
    const reader = fakeReader({ text: 'User-agent: *\nDisallow: /x', count: 1 });
    const cache = new RobotsCache(async () => undecodable(), { reader });
    expect(await cache.isAllowed('http://a.example/x')).toBe(false);
    expect(await cache.isAllowed('http://a.example/y')).toBe(true);
    expect(reader.reads).toBe(1);
    expect(reader.checks).toEqual([]);
  });

  it('asks the reader for every check when the rules are more than maxLocalRules', async () => {
    const reader = fakeReader({ text: 'User-agent: *\nDisallow: /x\nDisallow: /z', count: 2 });
    const cache = new RobotsCache(async () => undecodable(), { reader, maxLocalRules: 1 });
    expect(await cache.isAllowed('http://a.example/x')).toBe(false);
    expect(await cache.isAllowed('http://a.example/y')).toBe(true);
    expect(reader.checks).toEqual(['http://a.example/x', 'http://a.example/y']);
  });

  it('allows when the reader fails (queue full, timeout), and reads again after failureTtlMs', async () => {
    let reads = 0;
    const reader = fakeReader(
      { text: '', count: 0 },
      {
        robotsRules: async () => {
          reads++;
          throw new Error('the extract pool is busy');
        },
      },
    );
    const cache = new RobotsCache(async () => undecodable(), { reader, failureTtlMs: 0 });
    expect(await cache.isAllowed('http://a.example/x')).toBe(true);
    expect(await cache.isAllowed('http://a.example/x')).toBe(true);
    expect(reads).toBe(2);
  });

  it('allows a check the reader fails, but tells a caller who gave up so', async () => {
    const reader = fakeReader(
      { text: 'User-agent: *\nDisallow: /x\nDisallow: /z', count: 2 },
      { robotsAllowAll: () => Promise.reject(new Error('task timed out')) },
    );
    const cache = new RobotsCache(async () => undecodable(), { reader, maxLocalRules: 1 });
    expect(await cache.isAllowed('http://a.example/x')).toBe(true);
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await expect(cache.isAllowed('http://a.example/x', controller.signal)).rejects.toThrow('gave up');
  });
});

describe('RobotsCache.read (what discovery reads: Sitemap lines, status, failure)', () => {
  it("answers the reader's rules with their Sitemap lines and status, from the one fetch the checks use", async () => {
    let fetches = 0;
    const rules = { text: 'User-agent: *\nDisallow: /x', count: 1, sitemaps: ['http://a.example/sitemap.xml'] };
    const cache = new RobotsCache(
      async () => {
        fetches++;
        return undecodable();
      },
      { reader: fakeReader(rules) },
    );
    expect(await cache.isAllowed('http://a.example/x')).toBe(false);
    const robots = await cache.read('http://a.example/other');
    expect(robots).toMatchObject({ status: 200, rules });
    expect(robots.failure).toBeUndefined();
    expect(await robots.check!(['http://a.example/x', 'http://a.example/y'])).toEqual([false, true]);
    expect(fetches).toBe(1);
  });

  it('answers a 5xx by its status and a failed fetch by its failure, both without rules', async () => {
    const failure = new Error('connection refused');
    const cache = new RobotsCache(async (robotsUrl) => {
      if (robotsUrl.startsWith('http://busy.example')) return robotsFile(503, '');
      throw failure;
    });
    expect(await cache.read('http://busy.example/')).toMatchObject({ status: 503, rules: null, check: null });
    expect(await cache.read('http://down.example/')).toMatchObject({ status: null, failure, rules: null, check: null });
  });
});
