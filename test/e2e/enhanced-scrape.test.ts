/** POST /api/v1/enhanced/scrape over HTTP against the sandbox web. */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { captchaPage } from '../sandbox/fixture-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { freePort } from '../sandbox/free-port.js';

const hasChromium = existsSync('/usr/bin/chromium');
const PATH = '/api/v1/enhanced/scrape';

let web: SandboxWeb;
let quarry: RunningQuarry;
let closedPort: number;

/** An article with enough prose for the extractor to call it content. */
function article(title: string, extra = ''): string {
  const prose =
    `${title} is described here in plain sentences so that the extractor finds a real article with enough words. `.repeat(
      12,
    );
  return `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="About ${title}"></head>
<body><main><article><h1>${title}</h1><p>${prose}</p><p>${extra}</p><p><a href="/elsewhere">Read more about ${title}</a></p><img src="/img/${encodeURIComponent(title)}.png" alt="x"></article></main></body></html>`;
}

/** Data fetched by script only after the load event, answered after 800 ms. */
function lateDataPage(dataPath: string): string {
  return `<!doctype html><html lang="en"><head><title>Late data</title></head><body><main><h1>Late data</h1><p id="out">${('Waiting for the data ' + 'to arrive from the server. ').repeat(10)}</p></main><script>
    window.addEventListener('load', function () {
      fetch('${dataPath}').then(function (r) { return r.text(); }).then(function (t) { document.getElementById('out').textContent = t; });
    });
  </script></body></html>`;
}

function path(url: string): string {
  return url.replace(web.url, '');
}

beforeAll(async () => {
  web = await startSandboxWeb();
  // robots.txt is read once per origin and remembered, so it is set before any page is fetched.
  web.setRobots('User-agent: *\nDisallow: /private/\n');
  closedPort = await freePort();
  quarry = await startQuarry(web, { outbound: { allowHosts: [`127.0.0.1:${web.port}`, `127.0.0.1:${closedPort}`] } });
  if (!quarry.app.registry.get('enhanced.scrape')) {
    throw new Error(
      'enhanced.scrape is not registered: add scrapeCapability(services) to plugins/enhanced/index.ts and ' +
        '"enhanced.scrape" to plugins/enhanced/plugin.json',
    );
  }
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('POST /api/v1/enhanced/scrape: content', () => {
  it('scrapes real pages with text, metadata, images, links and timing', async () => {
    const urls = [web.pageUrl('wikipedia-microsoft'), web.pageUrl('blog-llm-tuning-math')];
    const res = await quarry.post(PATH, { urls, cache_mode: 'bypass' });
    expect(res.status).toBe(200);
    expect(res.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata).toMatchObject({
      total_urls: 2,
      successful: 2,
      failed: 0,
      failed_urls: [],
      cache_hits: 0,
      cache_mode: 'bypass',
      rendered: false,
    });
    const [wiki, blog] = res.body.scraped_content;
    expect(wiki).toMatchObject({
      url: urls[0],
      final_url: urls[0],
      status: 200,
      extraction_success: true,
      failure_reason: null,
      error_code: null,
      from_cache: false,
      rendered: false,
    });
    expect(wiki.title).toMatch(/Microsoft/);
    expect(wiki.text).toMatch(/Microsoft/);
    expect(wiki.word_count).toBeGreaterThan(500);
    expect(wiki.content_quality_score).toBeGreaterThan(0);
    expect(wiki.links.length).toBeGreaterThan(10);
    // Spec: links are strings; their anchor texts are in link_texts, in the same order.
    expect(wiki.links[0]).toMatch(/^https?:\/\//);
    expect(wiki.link_texts).toHaveLength(wiki.links.length);
    expect(wiki.link_texts.every((t: unknown) => typeof t === 'string')).toBe(true);
    expect(wiki.extraction_time_ms).toBe(wiki.timing.total_ms);
    expect(Array.isArray(wiki.images)).toBe(true);
    expect(wiki.metadata).toHaveProperty('language');
    expect(wiki.timing.total_ms).toBeGreaterThanOrEqual(wiki.timing.fetch_ms);
    expect(wiki.markdown).toBeUndefined();
    expect(wiki.html).toBeUndefined();
    expect(blog.extraction_success).toBe(true);
  });

  it('leaves out what extract_* turns off, and adds markdown and raw HTML on request', async () => {
    const url = web.addPage('/content/options', article('Options page'));
    const bare = await quarry.post(PATH, {
      urls: [url],
      extract_text: false,
      extract_images: false,
      extract_links: false,
      extract_metadata: false,
    });
    const page = bare.body.scraped_content[0];
    expect(page.extraction_success).toBe(true);
    for (const field of ['text', 'markdown', 'images', 'links', 'link_texts', 'metadata', 'html'])
      expect(page).not.toHaveProperty(field);
    const rich = await quarry.post(PATH, {
      urls: [url],
      response_format: 'markdown',
      include_html: true,
      cache_mode: 'bypass',
    });
    const full = rich.body.scraped_content[0];
    expect(full.markdown).toContain('Options page is described here');
    expect(full.html).toContain('<article>');
    expect(Array.isArray(full.images)).toBe(true);
    expect(Array.isArray(full.links)).toBe(true);
    expect(full.metadata.description).toBe('About Options page');
    expect(rich.body.markdown).toMatch(/^# Scraped 1 of 1 URLs/);
    expect(rich.body.markdown).toContain('Options page is described here');
  });

  it('answers one entry per input URL, in order, duplicates included', async () => {
    const a = web.addPage('/content/a', article('Alpha'));
    const b = web.addPage('/content/b', article('Bravo'));
    const res = await quarry.post(PATH, { urls: [b, a, b], cache_mode: 'bypass' });
    expect(res.body.scraped_content.map((p: any) => p.title)).toEqual(['Bravo', 'Alpha', 'Bravo']);
    expect(web.requestLog().filter((r) => r.path === '/content/b')).toHaveLength(1);
  });

  it('reports progress for every finished URL', async () => {
    const urls = [
      web.addPage('/content/p1', article('P one')),
      web.addPage('/content/p2', article('P two')),
      'http://10.9.9.9/x',
    ];
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    await quarry.app.registry.invoke(
      'enhanced.scrape',
      { urls, cache_mode: 'bypass' },
      {
        signal: new AbortController().signal,
        logger: silentLogger(),
        host: 'mcp',
        progress: (update) => updates.push(update),
      },
    );
    expect(updates.map((u) => u.progress)).toEqual([1, 2, 3]);
    expect(updates.every((u) => u.total === 3)).toBe(true);
    expect(updates.some((u) => u.message?.includes('failed (FORBIDDEN_ADDRESS)'))).toBe(true);
  });
});

describe('POST /api/v1/enhanced/scrape: per-URL failures', () => {
  it('reports each failing URL with a stable code and never fails the request', async () => {
    const good = web.addPage('/fail/good', article('Good page'));
    const captcha = web.addPage('/fail/captcha', captchaPage());
    const missing = web.addPage('/fail/missing', article('Gone'), { status: 404 });
    const broken = web.addPage('/fail/broken', 'oops', { status: 500, contentType: 'text/plain' });
    const robots = web.addPage('/private/page', article('Private'));
    const urls = [
      good,
      `http://127.0.0.1:${closedPort}/nothing`,
      'http://10.1.2.3/internal',
      robots,
      captcha,
      missing,
      broken,
    ];
    const res = await quarry.post(PATH, { urls, cache_mode: 'bypass' });
    expect(res.status).toBe(200);
    const byPath = Object.fromEntries(res.body.scraped_content.map((p: any) => [p.url, p]));
    expect(byPath[good].extraction_success).toBe(true);
    expect(byPath[urls[1]!]).toMatchObject({ extraction_success: false, error_code: 'UNREACHABLE', status: null });
    expect(byPath[urls[1]!].failure_reason).toMatch(/ECONNREFUSED/);
    expect(byPath['http://10.1.2.3/internal']).toMatchObject({
      extraction_success: false,
      error_code: 'FORBIDDEN_ADDRESS',
    });
    expect(byPath[robots]).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
    expect(byPath[captcha]).toMatchObject({
      extraction_success: false,
      error_code: 'BLOCKED',
      failure_reason: 'captcha',
      status: 200,
    });
    expect(byPath[missing]).toMatchObject({
      extraction_success: false,
      error_code: 'HTTP_ERROR',
      status: 404,
      failure_reason: 'HTTP 404',
    });
    expect(byPath[broken]).toMatchObject({ extraction_success: false, error_code: 'HTTP_ERROR', status: 500 });
    expect(res.body.metadata).toMatchObject({ total_urls: 7, successful: 1, failed: 6 });
    expect(res.body.metadata.failed_urls.map((f: any) => f.error_code).sort()).toEqual([
      'BLOCKED',
      'FORBIDDEN_ADDRESS',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'ROBOTS_DISALLOWED',
      'UNREACHABLE',
    ]);
    expect(web.requestLog().some((r) => r.path === '/private/page')).toBe(false);
  });

  it('fails a slow URL with TIMEOUT within the request timeout while the others succeed', async () => {
    const slow = web.addPage('/fail/slow', article('Slow'), { delayMs: 20_000 });
    const quick = web.addPage('/fail/quick', article('Quick'));
    const started = Date.now();
    const res = await quarry.post(PATH, { urls: [slow, quick], timeout: 2, cache_mode: 'bypass' });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0]).toMatchObject({ extraction_success: false, error_code: 'TIMEOUT' });
    expect(res.body.scraped_content[0].failure_reason).toMatch(/^timeout/);
    expect(res.body.scraped_content[1].extraction_success).toBe(true);
  });
});

describe('POST /api/v1/enhanced/scrape: bad input is a 400 naming the problem', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['invalid URL', { urls: ['https://ok.example/', 'not a url'] }, /urls\.1: must be an http\(s\) URL/],
    ['ftp URL', { urls: ['ftp://files.example/x'] }, /urls\.0/],
    ['51 URLs', { urls: Array.from({ length: 51 }, (_, i) => `https://site.example/${i}`) }, /urls: at most 50 URLs/],
    ['no URLs', { urls: [] }, /urls: give at least one URL/],
    ['missing urls', {}, /urls/],
    ['unknown cache_mode', { urls: ['https://a.example/'], cache_mode: 'sometimes' }, /cache_mode/],
    ['unknown wait_until', { urls: ['https://a.example/'], wait_until: 'networkidle' }, /wait_until/],
    ['unknown response_format', { urls: ['https://a.example/'], response_format: 'xml' }, /response_format/],
    ['urls as a string', { urls: 'https://a.example/' }, /urls/],
    ['boolean as a string', { urls: ['https://a.example/'], screenshot: 'true' }, /screenshot/],
    ['timeout as a string', { urls: ['https://a.example/'], timeout: '10' }, /timeout/],
    ['timeout out of range', { urls: ['https://a.example/'], timeout: 0 }, /timeout/],
    // Over HTTP an unknown field is ignored (see http-compat.test.ts); a bad known one is still a 400.
    ['a bad URL beside an unknown field', { urls: ['not a url'], render: true }, /urls\.0/],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const res = await quarry.post(PATH, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.message).toMatch(message);
  });
});

describe('POST /api/v1/enhanced/scrape: cache modes', () => {
  const count = (url: string): number => web.requestLog().filter((r) => r.path === path(url)).length;
  const scrape = async (url: string, cache_mode: string): Promise<boolean> => {
    const res = await quarry.post(PATH, { urls: [url], cache_mode });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0].extraction_success).toBe(true);
    return res.body.scraped_content[0].from_cache;
  };

  it('enabled: the second call comes from the cache without a fetch', async () => {
    const url = web.addPage('/cache/enabled', article('Cached'));
    expect(await scrape(url, 'enabled')).toBe(false);
    const second = await quarry.post(PATH, { urls: [url] });
    expect(second.body.scraped_content[0]).toMatchObject({
      from_cache: true,
      cached_at: expect.any(String),
      title: 'Cached',
    });
    expect(second.body.metadata.cache_hits).toBe(1);
    expect(count(url)).toBe(1);
    // Output-only options share the entry.
    expect(await scrape(url, 'enabled')).toBe(true);
    const narrow = await quarry.post(PATH, { urls: [url], extract_links: false, response_format: 'markdown' });
    expect(narrow.body.scraped_content[0]).toMatchObject({
      from_cache: true,
      markdown: expect.stringContaining('Cached is described here'),
    });
    expect(count(url)).toBe(1);
  });

  it('bypass never reads and never writes', async () => {
    const url = web.addPage('/cache/bypass', article('Bypassed'));
    expect(await scrape(url, 'enabled')).toBe(false);
    expect(await scrape(url, 'bypass')).toBe(false);
    expect(count(url)).toBe(2);
    const fresh = web.addPage('/cache/bypass-fresh', article('Bypassed fresh'));
    expect(await scrape(fresh, 'bypass')).toBe(false);
    expect(await scrape(fresh, 'read_only')).toBe(false);
  });

  it('write_only writes but does not read', async () => {
    const url = web.addPage('/cache/write-only', article('Written'));
    expect(await scrape(url, 'write_only')).toBe(false);
    expect(await scrape(url, 'write_only')).toBe(false);
    expect(count(url)).toBe(2);
    expect(await scrape(url, 'read_only')).toBe(true);
    expect(count(url)).toBe(2);
  });

  it('read_only reads but does not write', async () => {
    const url = web.addPage('/cache/read-only', article('Read only'));
    expect(await scrape(url, 'read_only')).toBe(false);
    expect(await scrape(url, 'read_only')).toBe(false);
    expect(await scrape(url, 'enabled')).toBe(false);
    expect(count(url)).toBe(3);
    expect(await scrape(url, 'read_only')).toBe(true);
  });

  it('disabled neither reads nor writes', async () => {
    const url = web.addPage('/cache/disabled', article('Disabled'));
    expect(await scrape(url, 'enabled')).toBe(false);
    expect(await scrape(url, 'disabled')).toBe(false);
    const fresh = web.addPage('/cache/disabled-fresh', article('Disabled fresh'));
    expect(await scrape(fresh, 'disabled')).toBe(false);
    expect(await scrape(fresh, 'read_only')).toBe(false);
    expect(count(fresh)).toBe(2);
  });

  it('never caches failures', async () => {
    const url = web.addPage('/cache/captcha', captchaPage());
    await quarry.post(PATH, { urls: [url] });
    const again = await quarry.post(PATH, { urls: [url] });
    expect(again.body.scraped_content[0]).toMatchObject({ from_cache: false, error_code: 'BLOCKED' });
  });
});

describe.runIf(hasChromium)('POST /api/v1/enhanced/scrape: browser rendering', () => {
  it('renders a JavaScript-only page that a plain fetch sees empty', async () => {
    const url = web.pageUrl('js-only');
    const plain = await quarry.post(PATH, { urls: [url], cache_mode: 'bypass' });
    expect(plain.body.scraped_content[0].text ?? '').not.toContain('a headless browser sees this article');
    const rendered = await quarry.post(PATH, { urls: [url], javascript_rendering: true, cache_mode: 'bypass' });
    expect(rendered.body.scraped_content[0]).toMatchObject({
      extraction_success: true,
      rendered: true,
      status: 200,
      title: expect.stringMatching(/JavaScript|Rendered/),
    });
    expect(rendered.body.scraped_content[0].text).toContain(
      'a headless browser sees this article once the script has run',
    );
    expect(rendered.body.scraped_content[0].title).toBe('Rendered in the browser');
    expect(rendered.body.metadata.rendered).toBe(true);
  });

  it('networkidle0 waits for data fetched after load; load does not', async () => {
    web.addPage('/render/late/data', `The late data arrived. ${'Every sentence of it is here now. '.repeat(20)}`, {
      contentType: 'text/plain',
      delayMs: 800,
    });
    const url = web.addPage('/render/late', lateDataPage('/render/late/data'));
    const atLoad = await quarry.post(PATH, { urls: [url], wait_until: 'load', cache_mode: 'bypass' });
    expect(atLoad.body.scraped_content[0].text).not.toContain('late data arrived');
    const idle = await quarry.post(PATH, { urls: [url], wait_until: 'networkidle0', cache_mode: 'bypass' });
    expect(idle.body.scraped_content[0]).toMatchObject({ rendered: true, extraction_success: true });
    expect(idle.body.scraped_content[0].text).toContain('The late data arrived.');
    const two = await quarry.post(PATH, {
      urls: [url],
      wait_until: 'networkidle2',
      include_html: true,
      cache_mode: 'bypass',
    });
    expect(two.body.scraped_content[0].html).toContain('<main>');
  });

  it('returns a PNG screenshot and a PDF (which imply rendering)', async () => {
    const res = await quarry.post(PATH, {
      urls: [web.pageUrl('js-only')],
      screenshot: true,
      pdf: true,
      cache_mode: 'bypass',
    });
    const page = res.body.scraped_content[0];
    expect(page.rendered).toBe(true);
    const png = Buffer.from(page.screenshot, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(800); // width from IHDR
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(100); // height
    expect(png.length).toBeGreaterThan(1000);
    const pdf = Buffer.from(page.pdf, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
  });

  it('reports rendered pages that fail with the same codes', async () => {
    const captcha = web.addPage('/render/captcha', captchaPage());
    const hang = web.addPage('/render/hang', article('Hangs'), { delayMs: 60_000 });
    const robots = web.addPage('/private/rendered', article('Private rendered'));
    const urls = [captcha, 'http://10.2.3.4/', `http://127.0.0.1:${closedPort}/`, robots, hang];
    const res = await quarry.post(PATH, { urls, javascript_rendering: true, timeout: 8, cache_mode: 'bypass' });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content.map((p: any) => p.error_code)).toEqual([
      'BLOCKED',
      'FORBIDDEN_ADDRESS',
      'UNREACHABLE',
      'ROBOTS_DISALLOWED',
      'TIMEOUT',
    ]);
    expect(web.requestLog().some((r) => r.path === '/private/rendered')).toBe(false);
  });

  it('caches rendered pages under their own key (screenshot included)', async () => {
    const url = web.addPage('/render/cached', article('Rendered cache'));
    const first = await quarry.post(PATH, { urls: [url], screenshot: true });
    const second = await quarry.post(PATH, { urls: [url], screenshot: true });
    expect(second.body.scraped_content[0]).toMatchObject({
      from_cache: true,
      rendered: true,
      screenshot: first.body.scraped_content[0].screenshot,
    });
    const plain = await quarry.post(PATH, { urls: [url] });
    expect(plain.body.scraped_content[0]).toMatchObject({ from_cache: false, rendered: false });
  });
});

describe('POST /api/v1/enhanced/scrape without Chromium', () => {
  let bare: RunningQuarry;
  beforeAll(async () => {
    // The pool reads QUARRY_CHROMIUM_PATH from the process environment when it is created (during startQuarry).
    const saved = process.env.QUARRY_CHROMIUM_PATH;
    process.env.QUARRY_CHROMIUM_PATH = '/nonexistent/chromium';
    try {
      bare = await startQuarry(web);
    } finally {
      if (saved === undefined) delete process.env.QUARRY_CHROMIUM_PATH;
      else process.env.QUARRY_CHROMIUM_PATH = saved;
    }
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('fails browser work per URL with JAVASCRIPT_UNAVAILABLE, and plain fetches still work', async () => {
    const url = web.addPage('/nobrowser/page', article('No browser'));
    const res = await bare.post(PATH, { urls: [url], screenshot: true });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0]).toMatchObject({
      extraction_success: false,
      error_code: 'JAVASCRIPT_UNAVAILABLE',
      rendered: true,
    });
    expect(res.body.scraped_content[0].failure_reason).toMatch(/^javascript rendering unavailable/);
    const plain = await bare.post(PATH, { urls: [url] });
    expect(plain.body.scraped_content[0].extraction_success).toBe(true);
  });
});
