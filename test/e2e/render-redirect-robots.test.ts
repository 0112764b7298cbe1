/**
 * A browser render that is redirected: Chromium follows redirects without
 * asking, so the reader checks robots.txt for every page the main frame went
 * to (each hop and the final URL) and discards a render that ended somewhere
 * robots.txt disallows. The site here redirects an open path to a disallowed
 * one. Rendering needs Chromium (/usr/bin/chromium).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { findChromium } from '../../services/browser/find-chromium.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let moved: string;
let open: string;

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${`${title} holds the members' schedule for the season. `.repeat(20)}</p></main></body></html>`;

beforeAll(async () => {
  web = await startSandboxWeb();
  web.setRobots('User-agent: *\nDisallow: /members/\n');
  const target = web.addPage('/members/schedule', page('Members only'));
  open = web.addPage('/open/schedule', page('Open schedule'));
  moved = web.addPage('/open/moved', '', { status: 302, headers: { location: target } });
  quarry = await startQuarry(web, { outbound: { allowHosts: [`127.0.0.1:${web.port}`], retries: 0, respectRobots: true } } as ConfigInput);
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('robots.txt for where a browser render was redirected', () => {
  it('has Chromium for the rendering paths', () => {
    expect(findChromium(), 'install chromium (apt-get install chromium): the render paths must be tested').not.toBeNull();
  });

  it('enhanced scrape with rendering: the redirected page is refused with ROBOTS_DISALLOWED and none of it is returned', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', { urls: [moved, open], javascript_rendering: true, cache_mode: 'bypass', include_html: true });
    expect(res.status).toBe(200);
    const [refused, read] = res.body.scraped_content;
    expect(refused).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED', rendered: true });
    expect(JSON.stringify(refused)).not.toContain('Members only');
    expect(read).toMatchObject({ extraction_success: true, rendered: true });
    // The browser did go to the redirect (it follows hops before anyone can ask).
    expect(web.requestLog().map((entry) => entry.path)).toContain('/open/moved');
  }, 60_000);

  it('the same page read statically is refused before the redirect is followed', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', { urls: [moved], javascript_rendering: false, cache_mode: 'bypass' });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0]).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
  }, 60_000);
});
