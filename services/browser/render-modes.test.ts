/** BrowserPool.render (wait modes, screenshot, PDF) and scrollAndCollect against the sandbox web. */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../../test/sandbox/sandbox-web.js';
import { addReplacingFeed, feedBatch, virtualListPage } from '../../test/sandbox/scroll-pages.js';
import { testPolicy } from '../../core/http/fixtures/local-server.js';
import { OutboundClient } from '../../core/http/outbound-client.js';
import { silentLogger } from '../../core/logger.js';
import { BrowserPool } from './browser-pool.js';

const hasChromium = existsSync('/usr/bin/chromium');

/** A page whose script fetches its data only after the load event; the data answers after delayMs. */
function lateDataPage(dataPath: string): string {
  return `<!doctype html><html><head><title>late</title></head><body><div id="out">loading</div><script>
    window.addEventListener('load', function () {
      fetch('${dataPath}').then(function (r) { return r.text(); }).then(function (t) { document.getElementById('out').textContent = t; });
    });
  </script></body></html>`;
}

describe.runIf(hasChromium)('BrowserPool render modes and scrolling', () => {
  let web: SandboxWeb;
  let outbound: OutboundClient;
  let pool: BrowserPool;

  beforeAll(async () => {
    web = await startSandboxWeb();
    outbound = new OutboundClient(testPolicy({ allowHosts: [`127.0.0.1:${web.port}`] }), silentLogger());
    pool = new BrowserPool({ maxConcurrentPages: 2, recycleAfterPages: 50 }, outbound, silentLogger());
    web.addPage('/late/data', 'late data arrived', { contentType: 'text/plain', delayMs: 800 });
    web.addPage('/late', lateDataPage('/late/data'));
    web.addPage('/poll/forever', 'never', { contentType: 'text/plain', delayMs: 600_000 });
    web.addPage('/poll', lateDataPage('/poll/forever'));
  });

  afterAll(async () => {
    await pool?.close();
    await outbound?.close();
    await web?.close();
  });

  it('networkidle0 waits for data fetched after load; load does not', async () => {
    const atLoad = await pool.render(`${web.url}/late`, { timeoutMs: 15_000, waitUntil: 'load' });
    expect(atLoad.html).toContain('loading');
    const started = Date.now();
    const idle = await pool.render(`${web.url}/late`, { timeoutMs: 15_000, waitUntil: 'networkidle0' });
    expect(idle.html).toContain('late data arrived');
    // 800 ms of data delay plus the 500 ms quiet window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1300);
  });

  it('networkidle2 tolerates a request that never ends; networkidle0 times out on it', async () => {
    const two = await pool.render(`${web.url}/poll`, { timeoutMs: 10_000, waitUntil: 'networkidle2' });
    expect(two.html).toContain('loading');
    await expect(pool.render(`${web.url}/poll`, { timeoutMs: 2500, waitUntil: 'networkidle0' })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(pool.stats().openPages).toBe(0);
  });

  it('captures a PNG screenshot and a PDF of the rendered page', async () => {
    const rendered = await pool.render(web.pageUrl('js-only'), { timeoutMs: 20_000, screenshot: true, pdf: true });
    expect(rendered.html).toContain('rendered by JavaScript');
    const png = rendered.screenshot!;
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height, big-endian, at bytes 16..24.
    expect(png.readUInt32BE(16)).toBeGreaterThan(100);
    expect(png.readUInt32BE(20)).toBeGreaterThan(100);
    expect(rendered.pdf!.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('collects every row of a virtualised list, which no single snapshot holds', async () => {
    const url = web.addPage('/scroll/virtual', virtualListPage(200));
    const result = await pool.scrollAndCollect(url, { maxScrolls: 10, scrollDelayMs: 100, timeoutMs: 30_000 });
    const seen = new Set(
      result.snapshots.flatMap((s) => [...s.matchAll(/Virtual item (\d+)</g)].map((m) => Number(m[1]))),
    );
    expect(seen.size).toBe(200);
    for (const snapshot of result.snapshots)
      expect(snapshot.includes('Virtual item 1<') && snapshot.includes('Virtual item 200<')).toBe(false);
    expect(result.snapshots.length).toBeGreaterThan(5);
    expect(result.finalUrl).toBe(url);
    expect(result.html).toContain('Virtual item 200<');
  });

  it('follows a feed that replaces its items from the network and stops once nothing changes', async () => {
    const url = addReplacingFeed(web, '/scroll/feed', 5, 150);
    const started = Date.now();
    const result = await pool.scrollAndCollect(url, { maxScrolls: 50, scrollDelayMs: 100, timeoutMs: 30_000 });
    const items = new Set(result.snapshots.flatMap((s) => [...s.matchAll(/Feed item \d+/g)].map((m) => m[0])));
    expect([...items].sort()).toEqual([0, 1, 2, 3, 4].flatMap(feedBatch).sort());
    // Stopped because the content settled, well before 50 rounds or the timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(web.requestLog().filter((r) => r.path.startsWith('/scroll/feed-data')).length).toBe(4);
  });

  it('stops at maxScrolls and keeps the guard on scrolling pages', async () => {
    const url = web.addPage('/scroll/virtual-long', virtualListPage(100));
    const one = await pool.scrollAndCollect(url, { maxScrolls: 1, scrollDelayMs: 0, timeoutMs: 20_000 });
    expect(one.snapshots.length).toBeGreaterThan(1);
    await expect(
      pool.scrollAndCollect('http://10.1.2.3/feed', { maxScrolls: 3, scrollDelayMs: 0, timeoutMs: 5000 }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN_ADDRESS',
    });
  });
});
