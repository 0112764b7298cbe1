import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { startLocalServer, testPolicy, type LocalServer } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { discoverUrls as discoverWith } from './discover.js';
import { linksOf } from './page-links.js';
import { parseSitemap } from './sitemap-parser.js';
import type { DiscoverOptions, DiscoverProgress, DiscoveryFetcher, ProgressListener } from './types.js';
import type { ReducedRobots, RobotsReader } from '../../core/http/robots-cache.js';
import { unwrap, type ParseOutcome } from '../extract/worker-tasks.js';
import runInWorker from '../../workers/extract.worker.js';
import { markupOf, pageFields } from '../extract/page-content.js';
import type { PageContent } from '../extract/types.js';

let ruleSets = 0;

/**
 * robots.txt read by the worker's entry point, called in-process (the app hands the outbound client the worker pool);
 * counts the checks it matched.
 */
function workerRobotsReader(): RobotsReader & { checks: number } {
  const ids = new WeakMap<object, string>();
  const reader = {
    checks: 0,
    robotsRules: async (bytes: Uint8Array, contentType: string | undefined, agent: string) =>
      unwrap(
        (await runInWorker({
          kind: 'robots',
          ...pageFields(contentType === undefined ? { bytes } : { bytes, contentTypeHeader: contentType }).fields,
          agent,
        })) as ParseOutcome<'robots'>,
      ),
    robotsAllowAll: async (rules: ReducedRobots, urls: string[]) => {
      reader.checks += urls.length;
      if (!ids.has(rules)) ids.set(rules, `discover-${++ruleSets}`);
      return unwrap(
        (await runInWorker({
          kind: 'robots-check',
          id: ids.get(rules)!,
          rules: rules.text,
          urls,
        })) as ParseOutcome<'robots-check'>,
      )!;
    },
  };
  return reader;
}

/** Discovery with its parsers called in-process (the service hands it the worker pool's). */
function discoverUrls(
  fetcher: DiscoveryFetcher,
  options: Omit<DiscoverOptions, 'parseLinks' | 'parseSitemap'>,
  onProgress?: ProgressListener,
) {
  const parsers = {
    parseLinks: async (page: PageContent, pageUrl: string) => linksOf(markupOf(page), pageUrl).map((url) => url.href),
    parseSitemap: async (sitemap: PageContent) => parseSitemap(markupOf(sitemap)),
  };
  return discoverWith(fetcher, { ...parsers, ...options }, onProgress);
}

interface Resource {
  body: string | Buffer;
  type?: string;
  status?: number;
  location?: string;
}

/** Every path of a site, as a function of its origin (robots.txt and sitemaps name absolute URLs). */
type SiteMap = (origin: string) => Record<string, Resource>;

const servers: LocalServer[] = [];
const clients: OutboundClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serveSite(site: SiteMap, hang: string[] = []): Promise<LocalServer> {
  let resources: Record<string, Resource> = {};
  const server = await startLocalServer((request, response) => {
    const path = request.url ?? '/';
    if (hang.includes(path)) return; // never answers
    const resource = resources[path];
    if (!resource) {
      response.statusCode = 404;
      response.end('not found');
      return;
    }
    response.statusCode = resource.status ?? 200;
    if (resource.location) response.setHeader('location', resource.location);
    response.setHeader('content-type', resource.type ?? 'text/html; charset=utf-8');
    response.end(resource.body);
  });
  resources = site(server.origin);
  servers.push(server);
  return server;
}

/** The outbound client discovery gets, whose one robots.txt cache reads the file with the worker's reader. */
function clientFor(server: LocalServer, allowed = true, robotsReader = workerRobotsReader()): OutboundClient {
  const policy = testPolicy({ respectRobots: true, allowHosts: allowed ? [`127.0.0.1:${server.port}`] : [] });
  const client = new OutboundClient(policy, silentLogger(), robotsReader);
  clients.push(client);
  return client;
}

function page(...links: string[]): Resource {
  return {
    body: `<!doctype html><html><body>${links.map((href) => `<a href="${href}">x</a>`).join('')}</body></html>`,
  };
}

function urlset(origin: string, entries: Array<[string, string?]>): string {
  const urls = entries.map(
    ([path, lastmod]) => `<url><loc>${origin}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}

const fullSite: SiteMap = (origin) => ({
  '/robots.txt': {
    type: 'text/plain',
    body: [
      'User-agent: *',
      'Disallow: /private/',
      `Sitemap: ${origin}/sitemap_index.xml`,
      `Sitemap: ${origin}/extra.txt`,
      'Sitemap: http://10.255.255.1/sitemap.xml',
    ].join('\n'),
  },
  '/sitemap_index.xml': {
    type: 'application/xml',
    body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>${origin}/sitemaps/pages.xml.gz</loc></sitemap>
      <sitemap><loc>${origin}/sitemaps/posts.xml</loc></sitemap>
      <sitemap><loc>${origin}/sitemaps/broken.xml</loc></sitemap>
    </sitemapindex>`,
  },
  '/sitemaps/pages.xml.gz': {
    type: 'application/gzip',
    body: gzipSync(urlset(origin, [['/'], ['/about', '2024-01-02']])),
  },
  '/sitemaps/posts.xml': {
    type: 'application/xml',
    body: urlset(origin, [['/blog/first', '2024-03-04T05:06:07+00:00'], ['/blog/second']]),
  },
  '/sitemaps/broken.xml': { type: 'application/xml', body: '<urlset><url><loc>oops</loc></url>' },
  '/extra.txt': { type: 'text/plain', body: `${origin}/from-text\n` },
  '/': page(
    '/about',
    'blog/',
    '/contact#team',
    'mailto:someone@example.com',
    'javascript:void(0)',
    '/private/secret',
    'https://elsewhere.example/page',
    '/logo.png',
    '/files/guide.pdf',
    '/level1',
    '/gone',
    '/moved',
  ),
  '/about': page('/'),
  '/blog/': page('/blog/third', '/blog/first'),
  '/blog/first': page(),
  '/blog/third': page(),
  '/contact': page(),
  '/private/secret': page('/private/deeper'),
  '/level1': page('/level2'),
  '/level2': page('/level3'),
  '/level3': page('/level4'),
  '/level4': page(),
  '/moved': { status: 302, location: '/new-home', body: '' },
  '/new-home': page(),
});

describe('discoverUrls', () => {
  it('reads robots.txt, nested, gzipped and plain-text sitemaps, then crawls links', async () => {
    const server = await serveSite(fullSite);
    const origin = server.origin;
    const progress: DiscoverProgress[] = [];
    const result = await discoverUrls(clientFor(server), { baseUrl: `${origin}/`, maxUrls: 100 }, (p) =>
      progress.push(p),
    );

    expect(result.robots).toEqual({
      found: true,
      sitemaps: [`${origin}/sitemap_index.xml`, `${origin}/extra.txt`, 'http://10.255.255.1/sitemap.xml'],
    });
    expect(result.sitemaps).toEqual([
      `${origin}/sitemap_index.xml`,
      `${origin}/extra.txt`,
      `${origin}/sitemaps/pages.xml.gz`,
      `${origin}/sitemaps/posts.xml`,
    ]);
    expect(result.urls).toEqual([
      { url: `${origin}/from-text`, source: 'sitemap' },
      { url: `${origin}/`, source: 'sitemap' },
      { url: `${origin}/about`, source: 'sitemap', lastmod: '2024-01-02' },
      { url: `${origin}/blog/first`, source: 'sitemap', lastmod: '2024-03-04T05:06:07+00:00' },
      { url: `${origin}/blog/second`, source: 'sitemap' },
      { url: `${origin}/blog/`, source: 'link', depth: 1 },
      { url: `${origin}/contact`, source: 'link', depth: 1 },
      { url: `${origin}/files/guide.pdf`, source: 'link', depth: 1 },
      { url: `${origin}/level1`, source: 'link', depth: 1 },
      { url: `${origin}/gone`, source: 'link', depth: 1 },
      { url: `${origin}/moved`, source: 'link', depth: 1 },
      { url: `${origin}/blog/third`, source: 'link', depth: 2 },
      { url: `${origin}/level2`, source: 'link', depth: 2 },
      { url: `${origin}/new-home`, source: 'link', depth: 1 },
      { url: `${origin}/level3`, source: 'link', depth: 3 },
    ]);
    expect(result.total_found).toBe(15);
    expect(result.truncated).toBe(false);
    expect(result.errors.map(({ url, code }) => ({ url, code }))).toEqual([
      { url: 'http://10.255.255.1/sitemap.xml', code: 'FORBIDDEN_ADDRESS' },
      { url: `${origin}/sitemaps/broken.xml`, code: 'UPSTREAM_FAILED' },
      { url: `${origin}/gone`, code: 'UPSTREAM_FAILED' },
    ]);
    expect(result.errors[1]?.message).toMatch(/not well-formed/);

    // Disallowed, off-depth, asset and document URLs are never fetched.
    for (const path of ['/private/secret', '/private/deeper', '/level3', '/level4', '/logo.png', '/files/guide.pdf']) {
      expect(server.requests).not.toContain(path);
    }
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ found: 15 });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.fetched).toBeGreaterThanOrEqual(progress[i - 1]!.fetched);
  });

  it('hands the sitemap parser bytes, decoded by their charset in the worker, gzipped or not', async () => {
    const latin1 = (origin: string) => Buffer.from(urlset(origin, [['/café'], ['/über']]), 'latin1');
    const server = await serveSite((origin) => ({
      '/robots.txt': { type: 'text/plain', body: `Sitemap: ${origin}/latin.xml\nSitemap: ${origin}/packed.xml.gz\n` },
      '/latin.xml': { type: 'application/xml; charset=iso-8859-1', body: latin1(origin) },
      '/packed.xml.gz': { type: 'application/gzip', body: gzipSync(urlset(origin, [['/naïve']])) },
      '/': page(),
    }));
    const handed: PageContent[] = [];
    // The worker's entry point, called in-process: the same code the pool runs.
    const parseSitemap = async (sitemap: PageContent) => {
      handed.push(sitemap);
      return unwrap((await runInWorker({ kind: 'sitemap', ...pageFields(sitemap).fields })) as ParseOutcome<'sitemap'>);
    };
    const result = await discoverWith(clientFor(server), {
      baseUrl: `${server.origin}/`,
      maxUrls: 10,
      maxDepth: 0,
      parseLinks: async () => [],
      parseSitemap,
    });
    expect(handed).toEqual([
      { bytes: expect.any(Uint8Array), contentTypeHeader: 'application/xml; charset=iso-8859-1' },
      { bytes: expect.any(Uint8Array), contentTypeHeader: 'application/xml' },
    ]);
    expect(result.urls.map((u) => u.url)).toEqual(
      expect.arrayContaining([
        `${server.origin}/caf%C3%A9`,
        `${server.origin}/%C3%BCber`,
        `${server.origin}/na%C3%AFve`,
      ]),
    );
  });

  it('respects maxDepth', async () => {
    const server = await serveSite(fullSite);
    const result = await discoverUrls(clientFor(server), {
      baseUrl: server.origin,
      maxUrls: 100,
      maxDepth: 1,
      pattern: '/level*',
    });
    expect(result.urls).toEqual([{ url: `${server.origin}/level1`, source: 'link', depth: 1 }]);
    expect(server.requests).not.toContain('/level1');
  });

  it('lists robots-disallowed links when told not to respect robots.txt', async () => {
    const server = await serveSite(fullSite);
    const client = new OutboundClient(
      testPolicy({ respectRobots: false, allowHosts: [`127.0.0.1:${server.port}`] }),
      silentLogger(),
      workerRobotsReader(),
    );
    clients.push(client);
    const result = await discoverUrls(client, {
      baseUrl: server.origin,
      maxUrls: 100,
      pattern: '/private/**',
      respectRobots: false,
    });
    expect(result.urls.map((entry) => entry.url.slice(server.origin.length))).toEqual([
      '/private/secret',
      '/private/deeper',
    ]);
  });

  it('matches a robots.txt of more rules than the event loop parses in the worker pool, and still skips what it disallows', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => `Disallow: /archive-${i}/*.pdf$`);
    const server = await serveSite((origin) => ({
      ...fullSite(origin),
      '/robots.txt': { type: 'text/plain', body: ['User-agent: *', ...many, 'Disallow: /private/'].join('\n') },
    }));
    const robotsReader = workerRobotsReader();
    const result = await discoverUrls(clientFor(server, true, robotsReader), { baseUrl: server.origin, maxUrls: 100 });
    const paths = result.urls.map((entry) => entry.url.slice(server.origin.length));
    expect(paths).toEqual(expect.arrayContaining(['/about', '/blog/third', '/new-home']));
    expect(paths.filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(robotsReader.checks).toBeGreaterThan(10);
    expect(server.requests).not.toContain('/private/secret');
  });

  it('matches a small robots.txt here, without the worker pool', async () => {
    const robotsReader = workerRobotsReader();
    const server = await serveSite(fullSite);
    const result = await discoverUrls(clientFor(server, true, robotsReader), { baseUrl: server.origin, maxUrls: 100 });
    expect(result.urls.map((entry) => entry.url)).not.toContain(`${server.origin}/private/secret`);
    expect(robotsReader.checks).toBe(0);
  });

  it('reports a robots-disallowed base_url as an error entry and crawls nothing', async () => {
    const server = await serveSite(fullSite);
    const result = await discoverUrls(clientFor(server), {
      baseUrl: `${server.origin}/private/secret`,
      maxUrls: 100,
      pattern: '/private/**',
    });
    expect(result.urls).toEqual([]);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ url: `${server.origin}/private/secret`, code: 'ROBOTS_DISALLOWED' }),
    );
    expect(server.requests).not.toContain('/private/secret');
  });

  it('filters by pattern without limiting what the crawl walks through', async () => {
    const server = await serveSite(fullSite);
    const result = await discoverUrls(clientFor(server), { baseUrl: server.origin, maxUrls: 100, pattern: '/blog/**' });
    expect(result.urls.map((entry) => entry.url.slice(server.origin.length))).toEqual([
      '/blog/first',
      '/blog/second',
      '/blog/',
      '/blog/third',
    ]);
    expect(result.total_found).toBe(4);
  });

  it('stops exactly at maxUrls and says it truncated', async () => {
    const server = await serveSite(fullSite);
    const result = await discoverUrls(clientFor(server), { baseUrl: server.origin, maxUrls: 3 });
    expect(result.urls).toHaveLength(3);
    expect(result.truncated).toBe(true);
    expect(result.total_found).toBeGreaterThan(3);
    // Enough URLs came from sitemaps: no page was crawled.
    expect(server.requests).not.toContain('/');
  });

  it('is not truncated when the site has exactly maxUrls URLs', async () => {
    const server = await serveSite(() => ({ '/': page('/a', '/b'), '/a': page(), '/b': page() }));
    const result = await discoverUrls(clientFor(server), { baseUrl: server.origin, maxUrls: 3 });
    expect(result.urls).toHaveLength(3);
    expect(result.truncated).toBe(false);
  });

  it('discovers by links alone when there is no robots.txt and no sitemap', async () => {
    const server = await serveSite(() => ({
      // A "soft 404": an HTML page answering 200 where a sitemap was guessed is not an error.
      '/sitemap.xml': page('/x'),
      '/start': page('/a', '../b#frag', 'https://elsewhere.example/'),
      '/a': page('/c'),
      '/b': page(),
      '/c': page(),
    }));
    const result = await discoverUrls(clientFor(server), { baseUrl: `${server.origin}/start#intro`, maxUrls: 10 });
    expect(result.robots).toEqual({ found: false, sitemaps: [] });
    expect(result.sitemaps).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.base_url).toBe(`${server.origin}/start`);
    expect(result.urls).toEqual([
      { url: `${server.origin}/start`, source: 'link', depth: 0 },
      { url: `${server.origin}/a`, source: 'link', depth: 1 },
      { url: `${server.origin}/b`, source: 'link', depth: 1 },
      { url: `${server.origin}/c`, source: 'link', depth: 2 },
    ]);
  });

  it("reads robots.txt once per site: discovery and the page fetches after it share the outbound client's copy", async () => {
    const server = await serveSite(fullSite);
    const client = clientFor(server);
    await client.fetch({ url: `${server.origin}/about`, purpose: 'page' });
    const result = await discoverUrls(client, { baseUrl: server.origin, maxUrls: 100 });
    await client.fetch({ url: `${server.origin}/blog/third`, purpose: 'page' });
    expect(result.robots.found).toBe(true);
    expect(result.robots.sitemaps).toContain(`${server.origin}/sitemap_index.xml`);
    expect(result.urls.map((entry) => entry.url)).not.toContain(`${server.origin}/private/secret`);
    expect(server.requests.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  it('records an error entry for a robots.txt that answers 5xx, and crawls as if it had none', async () => {
    const server = await serveSite(() => ({
      '/robots.txt': { type: 'text/plain', status: 503, body: 'busy' },
      '/': page('/a'),
      '/a': page(),
    }));
    const result = await discoverUrls(clientFor(server), { baseUrl: `${server.origin}/`, maxUrls: 10 });
    expect(result.robots).toEqual({ found: false, sitemaps: [] });
    expect(result.errors).toEqual([
      { url: `${server.origin}/robots.txt`, code: 'UPSTREAM_FAILED', message: expect.stringContaining('HTTP 503') },
    ]);
    expect(result.urls.map((entry) => entry.url)).toEqual([`${server.origin}/`, `${server.origin}/a`]);
  });

  it('throws FORBIDDEN_ADDRESS when the outbound policy refuses base_url', async () => {
    const server = await serveSite(fullSite);
    await expect(discoverUrls(clientFor(server, false), { baseUrl: server.origin, maxUrls: 10 })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN_ADDRESS',
      },
    );
    expect(server.requests).toEqual([]);
  });

  it('throws INVALID_INPUT for bad options before fetching anything', async () => {
    const server = await serveSite(fullSite);
    const client = clientFor(server);
    const bad: Array<[Partial<DiscoverOptions>, string]> = [
      [{ pattern: '/a/{b' }, 'pattern'],
      [{ baseUrl: 'ftp://example.com/' }, 'base_url'],
      [{ baseUrl: '/relative' }, 'base_url'],
      [{ maxUrls: 0 }, 'max_urls'],
      [{ maxUrls: 2.5 }, 'max_urls'],
      [{ maxDepth: -1 }, 'max_depth'],
    ];
    for (const [override, field] of bad) {
      await expect(discoverUrls(client, { baseUrl: server.origin, maxUrls: 10, ...override })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        details: { field },
      });
    }
    expect(server.requests).toEqual([]);
  });

  it('returns what it found with a TIMEOUT entry when the time budget runs out', async () => {
    const server = await serveSite(() => ({ '/': page('/slow', '/fast'), '/fast': page() }), ['/slow']);
    const started = Date.now();
    const result = await discoverUrls(clientFor(server), { baseUrl: server.origin, maxUrls: 10, timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.urls.map((entry) => entry.url)).toEqual([
      `${server.origin}/`,
      `${server.origin}/slow`,
      `${server.origin}/fast`,
    ]);
    expect(result.errors).toEqual([expect.objectContaining({ url: `${server.origin}/`, code: 'TIMEOUT' })]);
  });

  it('throws CANCELLED when the caller aborts', async () => {
    const server = await serveSite(() => ({ '/': page('/slow') }), ['/slow']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(
      discoverUrls(clientFor(server), { baseUrl: server.origin, maxUrls: 10, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
