/**
 * Engines from outside the built-in set: the worked example engine loaded
 * from its own folder, and engines declared entirely in configuration
 * (JSON API and HTML page), all searched through the HTTP API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let scratch: string;

beforeAll(async () => {
  web = await startSandboxWeb();
  scratch = mkdtempSync(join(tmpdir(), 'quarry-third-party-'));
  web.playEngine(
    'example_json',
    { file: join(PACKAGE_ROOT, 'examples/engines/example_json/fixtures/search.json'), contentType: 'application/json' },
    { rewriteLinks: false },
  );

  const apiFile = join(scratch, 'api.json');
  writeFileSync(
    apiFile,
    JSON.stringify({
      data: {
        items: [
          {
            href: '/papers/1',
            name: 'Tidal <em>currents</em> of the Pacific',
            abstract: 'Measurements of Pacific currents.',
          },
          { href: 'https://other.example/2', name: 'Ocean gyres', abstract: 'Gyres and currents.' },
        ],
      },
    }),
  );
  web.playEngine('my_api', { file: apiFile, contentType: 'application/json' }, { rewriteLinks: false });

  const htmlFile = join(scratch, 'page.html');
  writeFileSync(
    htmlFile,
    '<html><body><div class="hit"><a class="t" href="/doc/a">Pod scheduling basics</a><p class="s">How the ' +
      'scheduler places pods.</p></div><div class="hit"><a class="t" href="https://k8s.example/b">Taints &amp; ' +
      'tolerations</a><p class="s">Keep pods off nodes.</p></div></body></html>',
  );
  web.playEngine('my_html', { file: htmlFile, contentType: 'text/html' }, { rewriteLinks: false });

  quarry = await startQuarry(web, {
    engineDirs: [join(PACKAGE_ROOT, 'examples/engines/example_json')],
    customEngines: [
      {
        type: 'json',
        id: 'my_api',
        name: 'My API',
        urlTemplate: 'https://api.example.net/search?q={query}&p={page}',
        results: 'data.items',
        fields: { url: 'href', title: 'name', snippet: 'abstract' },
        paging: true,
      },
      {
        type: 'html',
        id: 'my_html',
        name: 'My HTML',
        urlTemplate: 'https://html.example.net/find?text={query}',
        selectors: { result: 'div.hit', url: 'a.t@href', title: 'a.t', snippet: 'p.s' },
      },
    ],
    engines: {
      example_json: { baseUrl: web.engineBaseUrl('example_json') },
      my_api: { baseUrl: web.engineBaseUrl('my_api') },
      my_html: { baseUrl: web.engineBaseUrl('my_html') },
    },
  });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('third-party engines', () => {
  it('loads the example engine from its own folder and searches through it', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'sourdough',
      engines: ['example_json'],
      scrape_content: false,
      cache_ttl: 0,
      relevance_filter: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.search_metadata.engines_succeeded).toEqual(['example_json']);
    expect(res.body.results.map((r: any) => r.url)).toEqual([
      'https://docs.example.org/sourdough/starter',
      'https://docs.example.org/sourdough/hydration',
      'https://docs.example.org/bread/shaping',
    ]);
    expect(res.body.results[0].title).toBe('Keeping a sourdough starter');
    expect(res.body.results[0].published_date).toBe('2025-03-14T00:00:00.000Z');
    const request = web.engineRequests('example_json')[0]!;
    expect(request.url).toContain('/api/search?q=sourdough');
  });

  it('lists third-party and config engines in the catalogue with their source', async () => {
    const res = await quarry.get('/api/v1/search/engines');
    expect(res.body.engines.example_json.source).toBe('directory');
    expect(res.body.engines.my_api.source).toBe('config');
    expect(res.body.engines.my_api.paging_support).toBe(true);
    expect(res.body.engines.my_html.categories).toEqual(['general']);
  });

  it('runs a JSON engine declared in configuration', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'pacific currents',
      engines: ['my_api'],
      scrape_content: false,
      cache_ttl: 0,
    });
    expect(res.body.results.map((r: any) => [r.title, r.url])).toEqual([
      ['Tidal currents of the Pacific', `${web.url}/papers/1`],
      ['Ocean gyres', 'https://other.example/2'],
    ]);
    expect(web.engineRequests('my_api')[0]!.url).toContain('search?q=pacific%20currents&p=1');
  });

  it('runs an HTML engine declared in configuration', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'pods',
      engines: ['my_html'],
      scrape_content: false,
      cache_ttl: 0,
      relevance_filter: false,
    });
    expect(res.body.results.map((r: any) => r.title)).toEqual(['Pod scheduling basics', 'Taints & tolerations']);
    expect(res.body.results[1].snippet).toBe('Keep pods off nodes.');
    expect(res.body.results[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/doc\/a$/);
  });

  it('rejects a bad config engine at start with the field named', async () => {
    await expect(
      startQuarry(web, {
        customEngines: [
          {
            type: 'json',
            id: 'Bad-Id',
            name: 'x',
            urlTemplate: 'https://x.example/?q={query}',
            results: 'r',
            fields: { url: 'u', title: 't' },
          },
        ] as never,
      }),
    ).rejects.toThrow(/customEngines\.0\.id/);
  });
});
