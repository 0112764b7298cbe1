/**
 * A browser render that is redirected or navigated by a script to a page
 * robots.txt disallows: robots.txt is asked before each main-frame
 * navigation and redirect hop is sent (services/browser/navigation-guard.ts),
 * so the site never sees a request for the disallowed page, and the answer
 * says ROBOTS_DISALLOWED. The site here redirects an open path to a
 * disallowed one, and has a page whose script goes there. Rendering needs
 * Chromium (/usr/bin/chromium).
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
let scripted: string;

const requestedPaths = (): string[] => web.requestLog().map((entry) => entry.path);
/** What the site served under its disallowed path: nothing, whichever way the browser was sent there. */
const disallowedRequests = (): string[] => requestedPaths().filter((path) => path.startsWith('/members/'));

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${`${title} holds the members' schedule for the season. `.repeat(20)}</p></main></body></html>`;

beforeAll(async () => {
  web = await startSandboxWeb();
  web.setRobots('User-agent: *\nDisallow: /members/\n');
  const target = web.addPage('/members/schedule', page('Members only'));
  open = web.addPage('/open/schedule', page('Open schedule'));
  moved = web.addPage('/open/moved', '', { status: 302, headers: { location: target } });
  // An allowed page whose script sends the browser to the disallowed one once it has loaded.
  scripted = web.addPage(
    '/open/scripted',
    `<!doctype html><html><head><title>Scripted</title></head><body><p>${'Moving on. '.repeat(40)}</p><script>addEventListener('load', () => setTimeout(() => { location.href = '/members/schedule?from=script'; }, 0));</script></body></html>`,
  );
  quarry = await startQuarry(web, {
    outbound: { allowHosts: [`127.0.0.1:${web.port}`], retries: 0, respectRobots: true },
  } as ConfigInput);
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('robots.txt before every page a browser render goes to', () => {
  it('has Chromium for the rendering paths', () => {
    expect(
      findChromium(),
      'install chromium (apt-get install chromium): the render paths must be tested',
    ).not.toBeNull();
  });

  it('enhanced scrape with rendering: the redirected page is refused with ROBOTS_DISALLOWED and none of it is returned', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [moved, open],
      javascript_rendering: true,
      cache_mode: 'bypass',
      include_html: true,
    });
    expect(res.status).toBe(200);
    const [refused, read] = res.body.scraped_content;
    expect(refused).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED', rendered: true });
    expect(JSON.stringify(refused)).not.toContain('Members only');
    expect(read).toMatchObject({ extraction_success: true, rendered: true });
    // The browser asked for the redirect, but robots.txt was asked before its target was: the site never saw it.
    expect(requestedPaths()).toContain('/open/moved');
    expect(disallowedRequests()).toEqual([]);
  }, 60_000);

  it('a script navigation to a disallowed page is refused before it is sent', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [scripted],
      javascript_rendering: true,
      wait_until: 'networkidle0',
      cache_mode: 'bypass',
    });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0]).toMatchObject({
      extraction_success: false,
      error_code: 'ROBOTS_DISALLOWED',
      rendered: true,
    });
    expect(requestedPaths()).toContain('/open/scripted');
    expect(disallowedRequests()).toEqual([]);
  }, 60_000);

  it('the same page read statically is refused before the redirect is followed', async () => {
    const res = await quarry.post('/api/v1/enhanced/scrape', {
      urls: [moved],
      javascript_rendering: false,
      cache_mode: 'bypass',
    });
    expect(res.status).toBe(200);
    expect(res.body.scraped_content[0]).toMatchObject({ extraction_success: false, error_code: 'ROBOTS_DISALLOWED' });
    expect(disallowedRequests()).toEqual([]);
  }, 60_000);
});
