/**
 * The app's outbound client reads robots.txt in the extraction worker pool
 * (app/container.ts hands it the pool): the event loop never decodes the
 * fetched file, and a site with more rules than the event loop may match
 * (RobotsCache's maxLocalRules, 1,000) has every check answered by the pool,
 * still refusing what the file disallows. Needs the built worker (npm run build).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { ExtractionPool } from '../../services/extract/extraction-pool.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

/** Text only the robots.txt files hold: any decode of them on this thread would return it. */
const MARKER = 'robots-marker-5b2e';
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${`${title} lists this season's fixtures and results. `.repeat(20)}</p></main></body></html>`;

let small: SandboxWeb;
let large: SandboxWeb;
let quarry: RunningQuarry;
const decodedHere: string[] = [];
const checkedInPool: string[] = [];

beforeAll(async () => {
  [small, large] = await Promise.all([startSandboxWeb(), startSandboxWeb()]);
  small.setRobots(
    `# ${MARKER}\nUser-agent: *\nDisallow: /members/\n\nUser-agent: Quarry\nDisallow: /members/\nDisallow: /drafts/\n`,
  );
  const many = Array.from({ length: 1500 }, (_, i) => `Disallow: /archive/${i}/`);
  large.setRobots(`# ${MARKER}\nUser-agent: *\n${many.join('\n')}\nDisallow: /members/\n`);
  for (const web of [small, large]) {
    web.addPage('/members/list', page('Members'));
    web.addPage('/open/fixtures', page('Fixtures'));
  }
  const decode = TextDecoder.prototype.decode;
  vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: TextDecoder, ...args) {
    const text = decode.apply(this, args);
    if (text.includes(MARKER)) decodedHere.push(text);
    return text;
  });
  const robotsAllowAll = ExtractionPool.prototype.robotsAllowAll;
  vi.spyOn(ExtractionPool.prototype, 'robotsAllowAll').mockImplementation(function (
    this: ExtractionPool,
    rules,
    urls,
    signal,
  ) {
    checkedInPool.push(...urls);
    return robotsAllowAll.call(this, rules, urls, signal);
  });
  quarry = await startQuarry(small, {
    outbound: { allowHosts: [`127.0.0.1:${small.port}`, `127.0.0.1:${large.port}`], retries: 0, respectRobots: true },
  } as ConfigInput);
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await quarry?.close();
  await Promise.all([small?.close(), large?.close()]);
});

async function scrape(web: SandboxWeb): Promise<Array<Record<string, unknown>>> {
  const res = await quarry.post('/api/v1/enhanced/scrape', {
    urls: [`${web.url}/members/list`, `${web.url}/open/fixtures`, `${web.url}/drafts/x`],
    cache_mode: 'bypass',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.scraped_content;
}

describe('robots.txt read in the worker pool', () => {
  it('refuses what robots.txt disallows without the file ever being decoded on the event loop', async () => {
    const [members, open, drafts] = await scrape(small);
    expect(members).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
    expect(drafts).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
    expect(open).toMatchObject({ extraction_success: true, title: 'Fixtures' });
    expect(decodedHere).toEqual([]);
    // A few rules are matched on the event loop: no round trip to the pool per page.
    expect(checkedInPool.filter((url) => url.startsWith(small.url))).toEqual([]);
  }, 60_000);

  it('above 1,000 rules, the pool answers every check and still refuses what the file disallows', async () => {
    const [members, open, drafts] = await scrape(large);
    expect(members).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
    expect(open).toMatchObject({ extraction_success: true, title: 'Fixtures' });
    // Not disallowed here (only Quarry's group on the small site names /drafts/): fetched, and the site has no such
    // page.
    expect(drafts).toMatchObject({ extraction_success: false, error_code: 'HTTP_ERROR' });
    expect(checkedInPool).toEqual(
      expect.arrayContaining([`${large.url}/members/list`, `${large.url}/open/fixtures`, `${large.url}/drafts/x`]),
    );
    expect(large.requestLog().map((entry) => entry.path)).not.toContain('/members/list');
    expect(decodedHere).toEqual([]);
  }, 60_000);
});
