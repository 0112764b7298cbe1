/**
 * GET /docs in a real browser (Debian's Chromium through playwright-core):
 * the interactive page of the OpenAPI document loads without a key (public by
 * default, as API docs usually are), every asset from this server (no CDN), and
 * a screenshot shows the route list. With docsRequireKey the page and its
 * documents need the key, which a browser gives as an HTTP Basic password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../services/browser/find-chromium.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let browser: Browser;
let scratch: string;

/** Swagger UI's colours for the method badges of POST and GET operations. */
const POST_GREEN = [0x49, 0xcc, 0x90];
const GET_BLUE = [0x61, 0xaf, 0xfe];

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web);
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is needed for this test (apt-get install chromium)');
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  scratch = mkdtempSync(join(tmpdir(), 'quarry-docs-'));
});

afterAll(async () => {
  await browser?.close();
  await quarry?.close();
  await web?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Counts pixels close to each colour, by drawing the PNG on a canvas in the browser itself. */
async function countColours(png: Buffer, colours: number[][]): Promise<number[]> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ data, colours }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, image.width, image.height).data;
        return colours.map(([r, g, b]) => {
          let count = 0;
          for (let i = 0; i < pixels.length; i += 4) {
            if (
              Math.abs(pixels[i]! - r!) < 12 &&
              Math.abs(pixels[i + 1]! - g!) < 12 &&
              Math.abs(pixels[i + 2]! - b!) < 12
            )
              count++;
          }
          return count;
        });
      },
      { data: png.toString('base64'), colours },
    );
  } finally {
    await page.close();
  }
}

describe('GET /docs', () => {
  it('renders the route list in Chromium without a key, from this server only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1600 } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      const response = await page.goto(`${quarry.url}/docs`, { waitUntil: 'load', timeout: 20_000 });
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });

      const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
        nodes.map((n) => n.getAttribute('data-path') ?? n.textContent ?? ''),
      );
      for (const expected of [
        '/api/v1/search/',
        '/api/v1/search/batch',
        '/api/v1/search/engines',
        '/api/v1/neural/search',
        '/api/v1/enhanced/scrape',
        '/health',
      ]) {
        expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain(expected);
      }
      expect(await page.textContent('.info .title')).toContain('Quarry API');

      // Every asset came from this server: nothing from a CDN or elsewhere.
      expect(requested.length).toBeGreaterThan(3);
      expect(requested.filter((url) => !url.startsWith(quarry.url) && !url.startsWith('data:'))).toEqual([]);

      const png = await page.screenshot({ fullPage: false });
      writeFileSync(join(scratch, 'docs.png'), png);
      if (process.env.QUARRY_KEEP_SCREENSHOTS) writeFileSync(process.env.QUARRY_KEEP_SCREENSHOTS, png);
      // The screenshot itself shows the route list: the green POST and blue GET method badges are painted.
      const [green, blue] = await countColours(png, [POST_GREEN, GET_BLUE]);
      expect(green).toBeGreaterThan(2000);
      expect(blue).toBeGreaterThan(1000);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('is public by default: the page and its documents answer without a key, while the API still needs one', async () => {
    for (const path of ['/docs', '/docs/', '/docs/json', '/docs/yaml', '/api/v1/openapi.json']) {
      const keyless = await fetch(`${quarry.url}${path}`);
      expect(keyless.status, path).toBe(200);
    }
    const spec = (await (await fetch(`${quarry.url}/docs/json`)).json()) as any;
    expect(spec.paths['/api/v1/search/']).toBeDefined();
    expect((await fetch(`${quarry.url}/api/v1/search/engines`)).status).toBe(401);
  });

  it('with docsRequireKey, needs the key for the page and its documents, and asks a browser for it', async () => {
    const guarded = await startQuarry(web, { docsRequireKey: true });
    try {
      for (const path of ['/docs/', '/docs/json', '/docs/yaml', '/api/v1/openapi.json']) {
        const keyless = await fetch(`${guarded.url}${path}`);
        expect(keyless.status, path).toBe(401);
        if (path.startsWith('/docs')) expect(keyless.headers.get('www-authenticate'), path).toMatch(/^Basic /);
      }
      const basic = { authorization: `Basic ${Buffer.from(`quarry:${TEST_KEY}`).toString('base64')}` };
      const docs = await fetch(`${guarded.url}/docs/`, { headers: basic });
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
      const spec = await fetch(`${guarded.url}/docs/json`, { headers: { 'x-api-key': TEST_KEY } });
      expect(spec.status).toBe(200);
      expect(((await spec.json()) as any).paths['/api/v1/search/']).toBeDefined();
    } finally {
      await guarded.close();
    }
  });
});
