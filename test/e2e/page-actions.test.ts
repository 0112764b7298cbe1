/**
 * Page actions through the one reader (services.scraper, as every area gets
 * it) with Debian's Chromium, against a local site that logs every request
 * and its headers: clicks that reveal text, a form typed into and submitted,
 * a wait for an element a script adds late, scrolling, screenshots, scripts
 * (refused unless configured), a click towards a robots-disallowed path
 * (never requested), a missing selector (ACTION_FAILED, quickly), the phone
 * profile and extra headers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { findChromium } from '../../services/browser/find-chromium.js';
import type { ScrapedPage, ScrapeOptions } from '../../services/scrape/scraper.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const filler = (topic: string): string =>
  `<p>${`${topic} is described here at some length so that the page has readable content. `.repeat(12)}</p>`;
const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${filler(title)}${body}</main></body></html>`;

const PAGES: Record<string, (query: URLSearchParams) => string> = {
  '/robots.txt': () => 'User-agent: *\nDisallow: /members/\n',
  '/reveal': () =>
    page(
      'Reveal',
      `<button id="show" onclick="document.getElementById('secret').hidden = false">show</button><div id="secret" hidden><p>${'The revealed treasure map. '.repeat(200)}</p></div>`,
    ),
  '/form': () =>
    page('Search form', `<form action="/result" method="get"><input id="q" name="q" autocomplete="off"></form>`),
  '/result': (query) =>
    page('Result page', `<p id="answer">Results for ${(query.get('q') ?? '').replace(/[<>&]/g, '')}</p>`),
  '/late': () =>
    page(
      'Late element',
      `<script>setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'The late arrival.'; document.querySelector('main').append(p); }, 1500);</script>`,
    ),
  '/long': () =>
    page(
      'Long page',
      `<div style="height: 5000px">tall</div><p id="pos">not scrolled</p><script>addEventListener('scroll', () => { document.getElementById('pos').textContent = 'scrolled to ' + Math.round(scrollY); });</script>`,
    ),
  '/open/links': () => page('Links', `<a id="go" href="/members/secret">members</a>`),
  '/members/secret': () => page('Members only', '<p>secret</p>'),
  '/width': () =>
    page(
      'Width',
      `<p id="w"></p><script>document.getElementById('w').textContent = 'inner width ' + innerWidth + ' agent ' + navigator.userAgent;</script>`,
      '<meta name="viewport" content="width=device-width">',
    ),
  '/echo': () => page('Echo', `<p>headers are logged by the site</p><img src="${otherUrl}/pixel.png" alt="">`),
};

interface LoggedRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

let web: SandboxWeb;
let site: Server;
let siteUrl: string;
const log: LoggedRequest[] = [];
/** Another origin the site's pages load from: a caller's headers must not reach it. */
let other: Server;
let otherUrl: string;
const otherLog: LoggedRequest[] = [];
let quarry: RunningQuarry;

async function startSite(): Promise<void> {
  site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    log.push({ path: url.pathname + url.search, headers: req.headers });
    const render = PAGES[url.pathname];
    if (!render) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res
      .writeHead(200, { 'content-type': url.pathname === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8' })
      .end(render(url.searchParams));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  other = createServer((req, res) => {
    otherLog.push({ path: req.url ?? '/', headers: req.headers });
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no pixel');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  // Another host, not just another port: cookies are kept per host, as browsers keep them.
  otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
}

function configFor(extra: ConfigInput = {}): ConfigInput {
  const hosts = [web.url, siteUrl, otherUrl].map((url) => new URL(url).host);
  return { outbound: { allowHosts: hosts, retries: 0, respectRobots: true }, ...extra } as ConfigInput;
}

function read(
  app: RunningQuarry,
  path: string,
  options: Omit<ScrapeOptions, 'timeoutMs'>,
  timeoutMs = 30_000,
): Promise<ScrapedPage> {
  return app.app.services.scraper.scrapeOne(`${siteUrl}${path}`, { timeoutMs, includeHtml: true, ...options });
}

function pngSize(base64: string): { width: number; height: number } {
  const png = Buffer.from(base64, 'base64');
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  // IHDR: width and height, big-endian, at bytes 16..24.
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

beforeAll(async () => {
  web = await startSandboxWeb();
  await startSite();
  quarry = await startQuarry(web, configFor({ browser: { allowExecuteJavascript: true } } as ConfigInput));
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => other?.close(resolve));
});

describe('page actions in the one reader', () => {
  it('has Chromium for the rendering paths', () => {
    expect(findChromium(), 'install chromium (apt-get install chromium): page actions must be tested').not.toBeNull();
  });

  it('a click reveals hidden text: the scrape after it holds the text, and the screenshots before and after differ', async () => {
    const result = await read(quarry, '/reveal', {
      actions: [
        { type: 'screenshot', fullPage: true },
        { type: 'scrape' },
        { type: 'click', selector: '#show' },
        { type: 'scrape' },
        { type: 'screenshot', fullPage: true },
        { type: 'executeJavascript', script: 'return [innerWidth, document.documentElement.scrollHeight]' },
      ],
    });
    expect(result).toMatchObject({ success: true, rendered: true });
    const { screenshots, scrapes, javascriptReturns } = result.actions!;
    expect(scrapes).toHaveLength(2);
    expect(scrapes[0]!.html).not.toMatch(/<div id="secret">/);
    expect(scrapes[1]!.html).toMatch(/<div id="secret">/);
    expect(scrapes[1]!.html).toContain('The revealed treasure map.');
    expect(scrapes[1]!.url).toBe(`${siteUrl}/reveal`);
    // The page as read after the actions holds the revealed text too.
    expect(result.text).toContain('The revealed treasure map.');
    expect(screenshots).toHaveLength(2);
    expect(screenshots[0]).not.toBe(screenshots[1]);
    const [width, height] = javascriptReturns[0]!.value as [number, number];
    expect(javascriptReturns[0]!.type).toBe('object');
    expect(pngSize(screenshots[1]!)).toEqual({ width, height });
    expect(pngSize(screenshots[0]!).height).toBeLessThan(height);
  }, 60_000);

  it('write and press Enter submit a form; the next scrape is the result page', async () => {
    const result = await read(quarry, '/form', {
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'granite quarries' },
        { type: 'press', key: 'Enter' },
        { type: 'scrape' },
      ],
    });
    expect(result.success).toBe(true);
    const scrape = result.actions!.scrapes[0]!;
    expect(scrape.url).toBe(`${siteUrl}/result?q=granite+quarries`);
    expect(scrape.html).toContain('Results for granite quarries');
    expect(result.finalUrl).toBe(`${siteUrl}/result?q=granite+quarries`);
    expect(log.map((entry) => entry.path)).toContain('/result?q=granite+quarries');
  }, 60_000);

  it('wait by selector waits for an element a script adds late', async () => {
    const early = await read(quarry, '/late', { actions: [{ type: 'scrape' }] });
    // The script's own text holds the words; the element is what counts.
    expect(early.actions!.scrapes[0]!.html).not.toContain('<p id="late">');
    const waited = await read(quarry, '/late', { actions: [{ type: 'wait', selector: '#late' }, { type: 'scrape' }] });
    expect(waited.actions!.scrapes[0]!.html).toContain('<p id="late">The late arrival.</p>');
  }, 60_000);

  it('scroll moves the page down and back up', async () => {
    const result = await read(quarry, '/long', {
      actions: [
        { type: 'executeJavascript', script: 'scrollY' },
        { type: 'scroll', direction: 'down' },
        { type: 'executeJavascript', script: 'scrollY' },
        { type: 'scrape' },
        { type: 'scroll', direction: 'up' },
        { type: 'executeJavascript', script: 'scrollY' },
      ],
    });
    const positions = result.actions!.javascriptReturns.map((entry) => entry.value);
    expect(positions[0]).toBe(0);
    expect(positions[1]).toBe(720);
    expect(positions[2]).toBe(0);
    expect(result.actions!.scrapes[0]!.html).toContain('scrolled to 720');
  }, 60_000);

  it('executeJavascript returns its value, as an expression or a function body', async () => {
    const result = await read(quarry, '/reveal', {
      actions: [
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'executeJavascript', script: 'const n = 20; return n + 1;' },
        { type: 'executeJavascript', script: 'await new Promise((r) => setTimeout(r, 10)); return { done: true }' },
        { type: 'executeJavascript', script: 'void 0' },
      ],
    });
    expect(result.failureReason).toBeUndefined();
    expect(result.actions!.javascriptReturns).toEqual([
      { type: 'string', value: 'Reveal' },
      { type: 'number', value: 21 },
      { type: 'object', value: { done: true } },
      { type: 'undefined', value: null },
    ]);
  }, 60_000);

  it('a click that navigates to a robots-disallowed path is refused, and that path is never requested', async () => {
    const result = await read(quarry, '/open/links', {
      actions: [{ type: 'click', selector: '#go' }, { type: 'scrape' }],
    });
    expect(result).toMatchObject({ success: false, errorCode: 'ROBOTS_DISALLOWED', rendered: true });
    expect(result.actions).toBeUndefined();
    expect(log.map((entry) => entry.path)).toContain('/open/links');
    expect(log.filter((entry) => entry.path.startsWith('/members/'))).toEqual([]);
  }, 60_000);

  it('a missing selector is ACTION_FAILED naming the action, well before the deadline', async () => {
    const started = Date.now();
    const result = await read(
      quarry,
      '/reveal',
      { actions: [{ type: 'scrape' }, { type: 'click', selector: '#nowhere' }] },
      30_000,
    );
    expect(result).toMatchObject({
      success: false,
      errorCode: 'ACTION_FAILED',
      failedAction: { index: 1, type: 'click' },
    });
    expect(result.failureReason).toMatch(/action 1 \(click\)/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('mobile renders with a phone viewport and user agent', async () => {
    const phone = await read(quarry, '/width', { mobile: true });
    expect(phone.html).toMatch(/inner width 412 agent [^<]*Mobile/);
    const desktop = await read(quarry, '/width', { javascript: true });
    expect(desktop.html).toContain('inner width 1280');
    expect(desktop.html).not.toMatch(/agent [^<]*Mobile/);
  }, 60_000);

  it('headers reach the site, rendered and fetched, and no other origin; hop-by-hop ones are dropped', async () => {
    const headers = { 'X-Quarry-Test': 'rendered-value', Connection: 'close-me-not', Cookie: 'session=abc' };
    await read(quarry, '/echo?rendered', { javascript: true, headers });
    const rendered = log.find((entry) => entry.path === '/echo?rendered')!;
    expect(rendered.headers['x-quarry-test']).toBe('rendered-value');
    expect(rendered.headers.cookie).toBe('session=abc');
    expect(rendered.headers.connection).not.toBe('close-me-not');
    // The page's image on another origin was requested without the caller's headers or cookie.
    const pixel = otherLog.find((entry) => entry.path === '/pixel.png')!;
    expect(pixel).toBeDefined();
    expect(pixel.headers['x-quarry-test']).toBeUndefined();
    expect(pixel.headers.cookie).toBeUndefined();
    await read(quarry, '/echo?fetched', { headers: { 'X-Quarry-Test': 'fetched-value' } });
    expect(log.find((entry) => entry.path === '/echo?fetched')!.headers['x-quarry-test']).toBe('fetched-value');
  }, 60_000);
});

describe('executeJavascript where the configuration does not enable it', () => {
  let plain: RunningQuarry;

  beforeAll(async () => {
    plain = await startQuarry(web, configFor());
  }, 60_000);

  afterAll(async () => {
    await plain?.close();
  });

  it('is refused with ACTION_NOT_ALLOWED (403) before the page is requested', async () => {
    const before = log.length;
    const reading = read(plain, '/reveal?refused', {
      actions: [
        { type: 'click', selector: '#show' },
        { type: 'executeJavascript', script: 'document.title' },
      ],
    });
    await expect(reading).rejects.toMatchObject({
      code: 'ACTION_NOT_ALLOWED',
      status: 403,
      details: { action_index: 1, action_type: 'executeJavascript' },
    });
    await expect(
      plain.app.services.scraper.scrapeMany([`${siteUrl}/reveal?refused`], {
        timeoutMs: 5000,
        actions: [{ type: 'executeJavascript', script: '1' }],
      }),
    ).rejects.toMatchObject({
      code: 'ACTION_NOT_ALLOWED',
    });
    expect(log.slice(before).filter((entry) => entry.path.startsWith('/reveal'))).toEqual([]);
  });
});
