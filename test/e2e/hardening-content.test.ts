/**
 * Issue 17, cases 5, 6 and 9 (content side): markdown from a hostile page
 * carries no raw HTML and no dangerous or internal links; the deprecated
 * IPv4-compatible IPv6 form of loopback is refused everywhere a URL is
 * fetched; a browser navigation the guard blocks is a failure, not
 * Chromium's error page; the same unreachable host gets the same code in
 * every area; the features answer names no server paths.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { probeSummary, whileProbingHealth } from './health-probe.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { freePort } from '../sandbox/free-port.js';
import { linkTargets, outsideCode } from '../sandbox/markdown-safety.js';

const hasChromium = existsSync('/usr/bin/chromium');

let web: SandboxWeb;
let quarry: RunningQuarry;
let closedPort: number;
let refusedPort: number;

const PROSE =
  'This hostile page still has a real article with plenty of words so the extractor keeps it as content. '.repeat(10);

const HOSTILE_PAGE =
  () => `<!doctype html><html lang="en"><head><title>Hostile &lt;script&gt;alert(1)&lt;/script&gt; page</title>
<meta name="description" content="<img src=x onerror=alert(1)> [desc](javascript:alert(1))"></head>
<body><main><article><h1>Hostile &lt;b&gt;heading&lt;/b&gt;</h1>
<p>${PROSE}</p>
<p>Text that looks like markup: &lt;script&gt;alert('x')&lt;/script&gt; and &lt;img src=x onerror=alert(1)&gt; and &lt;https://127.0.0.1/admin&gt;.
${PROSE} <a href="javascript:alert(1)">a javascript link</a> <a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">a data link</a>
<a href="vbscript:msgbox(1)">a vbscript link</a> <a href="http://127.0.0.1:${refusedPort}/admin">an internal link</a>
<a href="http://[::127.0.0.1]:${refusedPort}/">an ipv4-compatible link</a> <a href="http://169.254.169.254/latest/meta-data/">metadata</a>
<a href="/ok">x](javascript:alert(1)) [breakout</a> <a href="/ok2">close&lt;/a&gt;&lt;script&gt;</a> ${PROSE}</p>
<p><img src="http://10.0.0.1/tracker.png" alt="internal image"> <img src="data:image/png;base64,AAAA" alt="data image">
<img src="/real.png" alt="a ](javascript:alert(1)) real image" onerror="alert(1)"></p>
<p>${PROSE}</p></article></main></body></html>`;

beforeAll(async () => {
  web = await startSandboxWeb();
  closedPort = await freePort();
  refusedPort = await freePort();
  quarry = await startQuarry(web, {
    outbound: { allowHosts: [`127.0.0.1:${web.port}`, `127.0.0.1:${closedPort}`] },
    customEngines: [
      {
        type: 'json',
        id: 'sandbox_hostile',
        name: 'Hostile results',
        urlTemplate: `${web.url}/api/hostile?q={query}`,
        results: 'items',
        fields: { url: 'link', title: 'name', snippet: 'summary' },
      },
    ],
  });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('5. scrape markdown of a hostile page', () => {
  it.each([
    ['markdown', 'markdown'],
    ['json', 'json'],
  ])(
    'has no raw HTML tags, no javascript:/data: links and no links to refused addresses (response_format %s, ' +
      'markdown for MCP)',
    async (_label, format) => {
      const url = web.addPage(`/hostile-${format}`, HOSTILE_PAGE());
      const { status, body } = await quarry.post('/api/v1/enhanced/scrape', {
        urls: [url],
        response_format: format,
        extract_links: true,
        extract_images: true,
        extract_metadata: true,
        cache_mode: 'bypass',
      });
      expect(status).toBe(200);
      expect(body.scraped_content[0].extraction_success).toBe(true);
      // JSON answers reach agents as the capability's markdown text block (what MCP sends).
      const rendered =
        format === 'markdown'
          ? (body.markdown as string)
          : quarry.app.registry.get('enhanced.scrape')!.toMarkdown!(body);
      const markdown = outsideCode(rendered);
      expect(markdown).not.toMatch(/<\/?[a-z][^>]*>/i);
      expect(markdown).not.toMatch(/<!--|<!\[CDATA\[/);
      const targets = linkTargets(markdown);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) {
        expect(target, target).toMatch(/^https?:\/\//);
        const host = new URL(target).host;
        expect([`127.0.0.1:${web.port}`]).toContain(host);
      }
      // The words stay, as text.
      expect(markdown).toContain('a javascript link');
      expect(markdown).toContain('&lt;script&gt;');
    },
  );

  it('page markdown from search scraping is escaped the same way', async () => {
    const url = web.addPage('/hostile-direct', HOSTILE_PAGE());
    const { body } = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [url],
      response_format: 'markdown',
      cache_mode: 'bypass',
    });
    const page = body.scraped_content[0].markdown as string;
    expect(outsideCode(page)).not.toMatch(/<\/?[a-z][^>]*>/i);
    for (const target of linkTargets(page)) expect(new URL(target).host).toBe(`127.0.0.1:${web.port}`);
  });
});

describe('6. IPv6 forms of internal addresses', () => {
  const target = () => `http://[::127.0.0.1]:${web.port}/`;

  it('normalises [::127.0.0.1] to ::7f00:1 and refuses it in scrape', async () => {
    const { body } = await quarry.post('/api/v1/enhanced/scrape', { urls: [target()], cache_mode: 'bypass' });
    expect(body.scraped_content[0]).toMatchObject({ extraction_success: false, error_code: 'FORBIDDEN_ADDRESS' });
    expect(body.scraped_content[0].failure_reason).toContain('ipv4Compatible');
  });

  it('refuses it in discover-urls and neural/similar', async () => {
    const discover = await quarry.post('/api/v1/enhanced/discover-urls', {
      base_url: target(),
      max_depth: 0,
      timeout: 5,
    });
    expect(discover.status).toBe(403);
    expect(discover.body.error.code).toBe('FORBIDDEN_ADDRESS');
    const similar = await quarry.post('/api/v1/neural/similar', { url: target() });
    expect(similar.status).toBe(403);
    expect(similar.body.error.code).toBe('FORBIDDEN_ADDRESS');
  });

  it.runIf(hasChromium)('refuses it in the browser', async () => {
    const { body } = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [target()],
      javascript_rendering: true,
      cache_mode: 'bypass',
      timeout: 20,
    });
    expect(body.scraped_content[0]).toMatchObject({ extraction_success: false, error_code: 'FORBIDDEN_ADDRESS' });
  });
});

describe('9. operations', () => {
  it.runIf(hasChromium)(
    "reports a browser navigation the guard blocked as a failure, not as Chromium's error page",
    async () => {
      const url = web.addPage(
        '/navigates-away',
        `<!doctype html><html><head><title>Leaving</title></head><body><p>${PROSE}</p><script>location.href = 'http://127.0.0.1:${refusedPort}/internal';</script></body></html>`,
      );
      const { status, body } = await quarry.post('/api/v1/enhanced/scrape', {
        urls: [url],
        javascript_rendering: true,
        cache_mode: 'bypass',
        timeout: 20,
      });
      expect(status).toBe(200);
      const page = body.scraped_content[0];
      expect(page.extraction_success).toBe(false);
      expect(page.error_code).toBe('FORBIDDEN_ADDRESS');
      expect(page.text ?? '').not.toMatch(/ERR_|This site can.t be reached|chromewebdata/);
    },
  );

  it('reports the same unreachable host as UNREACHABLE in scrape, discover and similar', async () => {
    const url = `http://127.0.0.1:${closedPort}/gone`;
    const scrape = await quarry.post('/api/v1/enhanced/scrape', { urls: [url], cache_mode: 'bypass' });
    expect(scrape.body.scraped_content[0].error_code).toBe('UNREACHABLE');
    const discover = await quarry.post('/api/v1/enhanced/discover-urls', { base_url: url, max_depth: 0, timeout: 5 });
    const discoverCodes =
      discover.status === 200 ? discover.body.errors.map((e: { code: string }) => e.code) : [discover.body.error.code];
    expect(discoverCodes).toContain('UNREACHABLE');
    expect(discoverCodes).not.toContain('UPSTREAM_FAILED');
    const similar = await quarry.post('/api/v1/neural/similar', { url });
    expect(similar.body.error?.code ?? similar.body.pages_failed?.[0]?.reason).toMatch(/UNREACHABLE/);
  });

  it('GET /enhanced/features names no server paths', async () => {
    const { status, body } = await quarry.get('/api/v1/enhanced/features');
    expect(status).toBe(200);
    const text = JSON.stringify(body);
    expect(text).not.toContain(quarry.dataDir);
    expect(text).not.toMatch(/\/usr\/bin|\/usr\/lib|chromium-browser|\/tmp\/|\/home\//);
    expect(text).not.toMatch(/"executablePath"/);
  });

  it('/healthz answers while enhanced search reads a 1.5 MB result page (parsed in the worker pool) with every page step on', async () => {
    const paragraph = `<p>${PROSE} <a href="/big/${'x'.repeat(20)}">link</a> contact me@example.com</p>`;
    const big = web.addPage(
      '/big-result',
      `<html><body><main>${paragraph.repeat(Math.floor(1_500_000 / paragraph.length))}</main></body></html>`,
    );
    web.addPage(
      '/api/hostile',
      JSON.stringify({ items: [{ link: big, name: 'Big page', summary: 'a very large page' }] }),
      { contentType: 'application/json' },
    );
    const search = () =>
      quarry.post('/api/v1/enhanced/search', {
        query: 'article words',
        engines: ['sandbox_hostile'],
        relevance_filter: false,
        cache_ttl: 0,
        timeout: 60,
        extraction_strategy: 'regex',
        custom_patterns: { mail: '[a-z]+@[a-z]+\\.com' },
        link_analysis: true,
        markdown_generation: true,
        content_filter: 'pruning',
      });
    const report = await whileProbingHealth(quarry.url, search);
    expect(report.result.status, JSON.stringify(report.result.body).slice(0, 300)).toBe(200);
    const enhanced = report.result.body.results[0].enhanced;
    expect(enhanced.extraction.count).toBeGreaterThan(0);
    expect(enhanced.link_analysis.total).toBeGreaterThan(0);
    expect(report.worstHealthMs, probeSummary('enhanced search of a 1.5 MB page', report)).toBeLessThan(
      report.budgetMs,
    );
  });

  it('/healthz answers while a hostile page is scraped', async () => {
    const url = web.addPage('/deep-page', `<html><body>${'<div>'.repeat(200_000)}</body></html>`);
    const report = await whileProbingHealth(quarry.url, () =>
      quarry.post('/api/v1/enhanced/scrape', { urls: [url], cache_mode: 'bypass' }),
    );
    expect(report.result.status).toBe(200);
    expect(report.result.body.scraped_content[0].extraction_success).toBe(false);
    expect(report.worstHealthMs, probeSummary('scrape of 200,000 nested divs', report)).toBeLessThan(report.budgetMs);
  });
});
