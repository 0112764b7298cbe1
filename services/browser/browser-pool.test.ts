import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { startLocalServer, testPolicy, type LocalServer } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { BrowserPool } from './browser-pool.js';
import { until } from '../../test/sandbox/until.js';

const hasChromium = existsSync('/usr/bin/chromium');

function html(body: string): string {
  return `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
}

describe('BrowserPool without Chromium', () => {
  it('is unavailable and says how to install Chromium', async () => {
    const pool = new BrowserPool(
      { executablePath: '/nonexistent/chromium', maxConcurrentPages: 1, recycleAfterPages: 10 },
      { checkUrl: async () => undefined },
      silentLogger(),
    );
    expect(pool.available()).toBe(false);
    const error = await pool.renderHtml('http://127.0.0.1:1/', { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNAVAILABLE' });
    expect((error as Error).message).toContain('apt-get install chromium');
    await expect(pool.withPage(async () => 1)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(pool.stats()).toEqual({ launched: false, openPages: 0, pagesServed: 0, browserRestarts: 0 });
  });
});

describe.runIf(hasChromium)('BrowserPool with Chromium', () => {
  let site: LocalServer;
  let forbidden: LocalServer;
  let outbound: OutboundClient;
  let pool: BrowserPool;

  beforeAll(async () => {
    forbidden = await startLocalServer((_request, response) => {
      response.setHeader('access-control-allow-origin', '*');
      response.end('private data');
    });
    site = await startLocalServer((request, response) => {
      const path = request.url ?? '/';
      response.setHeader('content-type', 'text/html; charset=utf-8');
      if (path === '/js') {
        response.end(
          html(
            `<div id="out">waiting</div><script>document.getElementById('out').textContent = 'injected by script ' + (6 * 7);</script>`,
          ),
        );
      } else if (path === '/leak') {
        // Try the refused server three ways, then report back to the allowed one.
        const refused = forbidden.origin;
        response.end(
          html(`<img src="${refused}/img.png"><script>
            Promise.all([
              fetch('${refused}/fetch').catch(() => null),
              fetch('/redirect-out').catch(() => null),
              new Promise((resolve) => {
                const socket = new WebSocket('ws://127.0.0.1:${forbidden.port}/ws');
                socket.onerror = socket.onclose = resolve;
              }),
            ]).finally(() => fetch('/beacon'));
          </script>`),
        );
      } else if (path === '/fonts') {
        response.end(
          html(
            `<style>@font-face { font-family: Web; src: url(/font.woff2); } p { font-family: Web; }</style><p>text</p><img src="/pic.png">`,
          ),
        );
      } else if (path === '/redirect-out') {
        response.writeHead(302, { location: `${forbidden.origin}/landing` });
        response.end();
      } else if (path === '/hang') {
        // never answers
      } else {
        response.end(html(`<p>page ${path}</p>`));
      }
    });
    outbound = new OutboundClient(testPolicy({ allowHosts: [`127.0.0.1:${site.port}`] }), silentLogger());
    pool = new BrowserPool({ maxConcurrentPages: 2, recycleAfterPages: 50 }, outbound, silentLogger());
  });

  afterAll(async () => {
    await pool?.close();
    await outbound?.close();
    await Promise.all([site?.close(), forbidden?.close()]);
  });

  it('finds Chromium and reports itself available', () => {
    expect(BrowserPool.findChromium()).not.toBeNull();
    expect(pool.available()).toBe(true);
  });

  it('returns the HTML after the page scripts ran', async () => {
    const rendered = await pool.renderHtml(`${site.origin}/js`, { timeoutMs: 20_000 });
    expect(rendered.html).toContain('injected by script 42');
    expect(rendered.status).toBe(200);
    expect(rendered.finalUrl).toBe(`${site.origin}/js`);
    expect(pool.stats()).toMatchObject({ launched: true, openPages: 0 });
  });

  it('aborts page requests to a refused address', async () => {
    await pool.renderHtml(`${site.origin}/leak`, { timeoutMs: 20_000, waitUntil: 'networkidle' });
    await until('the page to send its beacon', async () => site.requests.includes('/beacon'), 5000, 50);
    expect(forbidden.requests).toEqual([]);
  });

  it('lets the same page reach that server when the guard allows it (control)', async () => {
    const open = new BrowserPool(
      { maxConcurrentPages: 1, recycleAfterPages: 50 },
      { checkUrl: async () => undefined },
      silentLogger(),
    );
    try {
      await open.renderHtml(`${site.origin}/leak`, { timeoutMs: 20_000, waitUntil: 'networkidle' });
      expect(forbidden.requests.length).toBeGreaterThan(0);
    } finally {
      forbidden.requests.length = 0;
      await open.close();
    }
  });

  it('refuses to navigate to a refused address, directly or by redirect', async () => {
    await expect(pool.renderHtml(`${forbidden.origin}/`, { timeoutMs: 10_000 })).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    await expect(pool.renderHtml(`${site.origin}/redirect-out`, { timeoutMs: 10_000 })).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
    expect(forbidden.requests).toEqual([]);
  });

  it('times out with TIMEOUT and cancels with CANCELLED', async () => {
    await expect(pool.renderHtml(`${site.origin}/hang`, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await expect(
      pool.renderHtml(`${site.origin}/hang`, { timeoutMs: 20_000, signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(pool.stats().openPages).toBe(0);
  });

  it('drops font requests by default but keeps images', async () => {
    await pool.renderHtml(`${site.origin}/fonts`, { timeoutMs: 20_000, waitUntil: 'networkidle' });
    expect(site.requests).toContain('/pic.png');
    expect(site.requests).not.toContain('/font.woff2');
    // Control: the same page does ask for the font when nothing is blocked.
    const unblocked = new BrowserPool(
      { maxConcurrentPages: 1, recycleAfterPages: 50, blockedResourceTypes: [] },
      outbound,
      silentLogger(),
    );
    try {
      await unblocked.renderHtml(`${site.origin}/fonts`, { timeoutMs: 20_000, waitUntil: 'networkidle' });
      expect(site.requests).toContain('/font.woff2');
    } finally {
      await unblocked.close();
    }
  });

  it('runs arbitrary page work with withPage and closes the page after', async () => {
    const title = await pool.withPage(async (page) => {
      await page.goto(`${site.origin}/plain`);
      return page.title();
    });
    expect(title).toBe('t');
    expect(pool.stats().openPages).toBe(0);
  });

  it('relaunches the browser after recycleAfterPages pages', async () => {
    const recycling = new BrowserPool({ maxConcurrentPages: 1, recycleAfterPages: 2 }, outbound, silentLogger());
    try {
      for (const n of [1, 2, 3]) {
        const rendered = await recycling.renderHtml(`${site.origin}/p${n}`, { timeoutMs: 20_000 });
        expect(rendered.html).toContain(`page /p${n}`);
      }
      expect(recycling.stats()).toMatchObject({ pagesServed: 3, browserRestarts: 1, launched: true });
    } finally {
      await recycling.close();
    }
  });
});
