/**
 * The graph view in real Chromium (Debian's, through playwright-core): the
 * page asks a browser for the API key by HTTP Basic, draws the graph (the
 * screenshot holds node-coloured pixels), a search highlights the matching
 * node (highlight-coloured pixels appear), the type filter redraws, a click
 * expands a node's neighbours.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, TEST_KEY, type RunningQuarry } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const NODE_COLORS = {
  person: [0x4e, 0x79, 0xa7],
  organization: [0xf2, 0x8e, 0x2b],
  location: [0x59, 0xa1, 0x4f],
} as const;
const HIGHLIGHT = [0xe0, 0x11, 0x5f] as const;

const TEXTS = [
  'Satya Nadella, chief executive of Microsoft, said Microsoft partnered with OpenAI. Nadella spoke in ' +
    'Seattle, Washington.',
  'Lucas Paganini, a planetary scientist at NASA, led the study at Goddard Space Flight Center in Greenbelt, Maryland.',
  'Apple CEO Tim Cook said Salesforce founder Marc Benioff would visit Cupertino. Salesforce is based in San ' +
    'Francisco.',
  'Dataminr acquires ThreatConnect. Dataminr is headquartered in New York City.',
];

let web: SandboxWeb;
let quarry: RunningQuarry;
let browser: Browser;
let dataDir: string;
/** Screenshots go to QUARRY_TEST_SHOTS_DIR when set (to look at them), else to a temporary folder. */
const keepShots = process.env.QUARRY_TEST_SHOTS_DIR;
const shots = keepShots ?? mkdtempSync(join(tmpdir(), 'quarry-graph-shots-'));

/** Counts screenshot pixels near each colour, decoding the PNG in the browser itself. */
async function countColours(
  page: Page,
  png: Buffer,
  colours: Record<string, readonly number[]>,
): Promise<Record<string, number>> {
  const decoder = await page.context().newPage();
  try {
    return await decoder.evaluate(
      async ({ data, colours }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(image, 0, 0);
        const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        const counts: Record<string, number> = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
        for (let i = 0; i < pixels.length; i += 4) {
          for (const [name, [r, g, b]] of Object.entries(colours)) {
            if (
              Math.abs(pixels[i]! - r!) < 12 &&
              Math.abs(pixels[i + 1]! - g!) < 12 &&
              Math.abs(pixels[i + 2]! - b!) < 12
            )
              counts[name]! += 1;
          }
        }
        return counts;
      },
      { data: png.toString('base64'), colours },
    );
  } finally {
    await decoder.close();
  }
}

describe.runIf(existsSync(CHROMIUM))('GET /graph in Chromium', () => {
  beforeAll(async () => {
    web = await startSandboxWeb();
    dataDir = mkdtempSync(join(tmpdir(), 'quarry-graph-page-'));
    quarry = await startQuarry(web, { dataDir });
    for (const [i, text] of TEXTS.entries()) {
      const res = await quarry.post('/api/v1/knowledge/extract', { text, source_url: `https://graph.example/${i}` });
      expect(res.status).toBe(200);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await quarry?.close();
    await web?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!keepShots) rmSync(shots, { recursive: true, force: true });
  });

  it('is behind the API key, and asks a browser for it with HTTP Basic', async () => {
    const anonymous = await fetch(`${quarry.url}/graph`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Quarry"/);
    const wrong = await fetch(`${quarry.url}/graph`, {
      headers: { authorization: `Basic ${Buffer.from('me:wrong-key-123456').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${quarry.url}/graph`, {
      headers: { authorization: `Basic ${Buffer.from(`me:${TEST_KEY}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
    expect(await basic.text()).toContain('/graph/assets/cytoscape.min.js');
    const script = await fetch(`${quarry.url}/graph/assets/cytoscape.min.js`, { headers: { 'x-api-key': TEST_KEY } });
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('draws the nodes, highlights a searched node, filters by type and expands a clicked node', async () => {
    const context = await browser.newContext({
      httpCredentials: { username: 'quarry', password: TEST_KEY },
      viewport: { width: 1200, height: 800 },
    });
    const page = await context.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(quarry.url)) external.push(request.url());
    });
    try {
      await page.goto(`${quarry.url}/graph`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
      expect(await page.textContent('#status')).toMatch(/\d+ entities, \d+ relations/);
      const drawn = await page.screenshot();
      writeFileSync(join(shots, 'graph.png'), drawn);
      const before = await countColours(page, drawn, { ...NODE_COLORS, highlight: HIGHLIGHT });
      expect(before.person).toBeGreaterThan(150);
      expect(before.organization).toBeGreaterThan(150);
      expect(before.highlight).toBe(0);

      await page.fill('#search', 'Salesforce');
      await page.waitForSelector('body[data-highlighted="1"]', { timeout: 10_000 });
      expect(await page.textContent('#status')).toContain('1 match');
      const highlighted = await page.screenshot();
      writeFileSync(join(shots, 'highlighted.png'), highlighted);
      expect((await countColours(page, highlighted, { highlight: HIGHLIGHT })).highlight).toBeGreaterThan(150);
      const marked = await page.evaluate(() =>
        (window as any).quarryGraph.nodes('.highlight').map((n: any) => n.data('name')),
      );
      expect(marked).toEqual(['Salesforce']);

      await page.fill('#search', '');
      await page.selectOption('#type', 'person');
      await page.waitForFunction(
        () =>
          (window as any).quarryGraph.nodes().length > 0 &&
          (window as any).quarryGraph.nodes().every((n: any) => n.data('type') === 'person'),
      );
      const people = await page.evaluate(() => (window as any).quarryGraph.nodes().map((n: any) => n.data('name')));
      expect(people).toEqual(expect.arrayContaining(['Satya Nadella', 'Lucas Paganini']));

      const position = await page.evaluate(() => {
        const node = (window as any).quarryGraph.nodes().filter((n: any) => n.data('name') === 'Satya Nadella')[0];
        const box = document.getElementById('graph')!.getBoundingClientRect();
        const p = node.renderedPosition();
        return { x: box.left + p.x, y: box.top + p.y };
      });
      await page.mouse.click(position.x, position.y);
      await page.waitForSelector('#details h2', { timeout: 10_000 });
      expect(await page.textContent('#details h2')).toBe('Satya Nadella');
      await page.waitForFunction(() =>
        (window as any).quarryGraph.nodes().some((n: any) => n.data('name') === 'Microsoft'),
      );
      expect(await page.textContent('#details ul')).toContain('Satya Nadella —leads→ Microsoft');
      writeFileSync(join(shots, 'expanded.png'), await page.screenshot());
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
