/**
 * The smaller holes of issue 28, each over HTTP against the local web: an agent
 * map whose select_paths pattern runs too long names the page in
 * failed_results instead of answering an empty success, and neural/similar
 * refuses a source URL that redirects to file: or gopher: with a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  quarry = await startQuarry(web);
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

describe('agent map with a select_paths pattern that backtracks catastrophically', () => {
  it('reports the page whose links could not be filtered in failed_results, naming the timeout', async () => {
    const start = web.addPage(
      '/map-start/',
      `<html><body><a href="/${'a'.repeat(40)}!">slow</a><a href="/other">other</a></body></html>`,
    );
    // Quick on the start URL's own path, catastrophic on the link with many a's.
    const res = await quarry.post('/api/v1/agent/map', { url: start, select_paths: ['^/(a+)+$'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual([]);
    expect(res.body.failed_results).toEqual([
      { url: start, error: expect.stringMatching(/pattern took longer than \d+ ms/) },
    ]);
  }, 30_000);
});

describe('neural/similar from a URL that redirects off http(s)', () => {
  it.each(['file:///etc/passwd', 'gopher://127.0.0.1:70/1'])(
    'refuses a redirect to %s with 403 FORBIDDEN_ADDRESS, not a 502',
    async (target) => {
      const source = web.addPage(`/redirect-to-${target.split(':')[0]}`, '', {
        status: 302,
        headers: { location: target },
      });
      const res = await quarry.post('/api/v1/neural/similar', { url: source });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN_ADDRESS');
      expect(res.body.error.message).toContain(target.split(':')[0]);
    },
  );
});
