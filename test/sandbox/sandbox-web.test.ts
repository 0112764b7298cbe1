/**
 * The sandbox web through plain fetch: engine playback and failure modes,
 * pages, added pages, robots.txt, webhooks, the request log and close().
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixturePages } from './fixture-pages.js';
import { startSandboxWeb, type SandboxWeb } from './sandbox-web.js';
import { TOPIC_PAGES } from './topic-pages.js';
import { until } from './until.js';

const RESULT_PAGE = `<html><body>
<div class="result"><a href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fbakery.example.com%2Fsourdough-starter-guide&amp;rut=1">Starter</a></div>
<div class="result"><a href="https://garden.example.org/honeybee-swarms?lang=en&amp;ref=2">Bees</a></div>
<img src="https://cdn.example.org/logo.png">
</body></html>`;
const SUMMARY_JSON = '{"items":[{"link":"https:\\/\\/docs.example.net\\/pod-scheduling"}]}';

let dir: string;
let web: SandboxWeb;

function recordingFile(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, name.endsWith('.gz') ? gzipSync(content) : content);
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-web-test-'));
  web = await startSandboxWeb();
});

afterAll(async () => {
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('server', () => {
  it('listens on 127.0.0.1 at a random port', () => {
    expect(web.url).toBe(`http://127.0.0.1:${web.port}`);
    expect(web.port).toBeGreaterThan(0);
  });

  it('answers 404 to unknown paths', async () => {
    for (const path of ['/', '/nothing/here', '/pages/no-such-page', '/pages/topic/no-such-topic']) {
      expect((await fetch(web.url + path)).status).toBe(404);
    }
  });

  it('logs every request with its method and path', async () => {
    await fetch(`${web.url}/logged/path?x=1`, { method: 'DELETE' });
    expect(web.requestLog()).toContainEqual({ method: 'DELETE', path: '/logged/path?x=1' });
  });
});

describe('engine playback', () => {
  it('serves the recording for any path and query under the engine base URL', async () => {
    web.playEngine('plain', {
      file: recordingFile('plain.html', '<p>hello</p>'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(web.engineBaseUrl('plain')).toBe(`${web.url}/engines/plain`);
    for (const path of ['', '/', '/html/?q=bread', '/api/v2/search?q=a&page=3']) {
      const res = await fetch(web.engineBaseUrl('plain') + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toBe('<p>hello</p>');
    }
  });

  it('records method, full URL, headers and body of each request', async () => {
    web.playEngine('recorded', { file: recordingFile('recorded.json', '{}'), contentType: 'application/json' });
    await fetch(`${web.engineBaseUrl('recorded')}/search?q=sourdough`, {
      method: 'POST',
      headers: { 'user-agent': 'QuarryTest/1.0', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'q=sourdough&s=0',
    });
    const [request] = web.engineRequests('recorded');
    expect(request!.method).toBe('POST');
    expect(new URL(request!.url).searchParams.get('q')).toBe('sourdough');
    expect(request!.url).toBe(`${web.url}/engines/recorded/search?q=sourdough`);
    expect(request!.headers['user-agent']).toBe('QuarryTest/1.0');
    expect(request!.body).toBe('q=sourdough&s=0');
    expect(web.engineRequests('never-called')).toEqual([]);
  });

  it('plays several recordings in order and repeats the last one', async () => {
    web.playEngine('two-step', [
      { file: recordingFile('step1.json', '{"step":1}'), contentType: 'application/json' },
      { file: recordingFile('step2.xml.gz', '<step>2</step>'), contentType: 'application/xml', status: 202 },
    ]);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(web.engineBaseUrl('two-step'));
      answers.push([res.status, await res.text()]);
    }
    expect(answers).toEqual([
      [200, '{"step":1}'],
      [202, '<step>2</step>'],
      [202, '<step>2</step>'],
    ]);
  });

  it('rewrites result links to sandbox site pages and lists them', async () => {
    web.playEngine('ddg', { file: recordingFile('ddg.html.gz', RESULT_PAGE), contentType: 'text/html' });
    web.playEngine('api', { file: recordingFile('api.json', SUMMARY_JSON), contentType: 'application/json' });
    const html = await (await fetch(web.engineBaseUrl('ddg'))).text();
    const json = await (await fetch(web.engineBaseUrl('api'))).json();

    const starter = `${web.url}/site/bakery.example.com/sourdough-starter-guide`;
    const bees = `${web.url}/site/garden.example.org/honeybee-swarms?lang=en&ref=2`;
    const pods = `${web.url}/site/docs.example.net/pod-scheduling`;
    expect(html).toContain(`uddg=${encodeURIComponent(starter)}&amp;rut=1`);
    expect(html).toContain(`href="${web.url}/site/garden.example.org/honeybee-swarms?lang=en&amp;ref=2"`);
    expect(html).toContain('src="https://cdn.example.org/logo.png"');
    expect(json.items[0].link).toBe(pods);
    expect(web.sitePages()).toEqual(expect.arrayContaining([starter, bees, pods]));
  });

  it('leaves the body untouched when rewriteLinks is false', async () => {
    web.playEngine(
      'raw',
      { file: recordingFile('raw.html', RESULT_PAGE), contentType: 'text/html' },
      { rewriteLinks: false },
    );
    expect(await (await fetch(web.engineBaseUrl('raw'))).text()).toBe(RESULT_PAGE);
  });

  it('delays every answer by delayMs', async () => {
    web.playEngine(
      'delayed',
      { file: recordingFile('delayed.txt', 'late'), contentType: 'text/plain' },
      { delayMs: 150 },
    );
    const started = performance.now();
    expect(await (await fetch(web.engineBaseUrl('delayed'))).text()).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers 404 for an engine with nothing played', async () => {
    expect((await fetch(web.engineBaseUrl('unplayed'))).status).toBe(404);
  });

  it('throws at once for a missing recording file', () => {
    expect(() => web.playEngine('missing', { file: join(dir, 'nope.html'), contentType: 'text/html' })).toThrow();
  });
});

describe('site pages', () => {
  it('serves a real page retitled from the URL, with a canonical link to itself', async () => {
    const url = `${web.url}/site/bakery.example.com/sourdough-starter-guide`;
    const html = await (await fetch(url)).text();
    expect(html.length).toBeGreaterThan(5000);
    expect(html).toContain('<title>Sourdough Starter Guide | bakery.example.com</title>');
    expect(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)![1]).toBe('Sourdough Starter Guide | bakery.example.com');
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
  });

  it('is deterministic, and different results look different', async () => {
    const first = await (await fetch(`${web.url}/site/a.example/kubernetes-pods`)).text();
    const again = await (await fetch(`${web.url}/site/a.example/kubernetes-pods`)).text();
    const other = await (await fetch(`${web.url}/site/a.example/ocean-currents`)).text();
    expect(again).toBe(first);
    expect(/<title>([^<]*)/.exec(other)![1]).not.toBe(/<title>([^<]*)/.exec(first)![1]);
  });
});

describe('engine modes', () => {
  beforeEach(() => {
    web.playEngine('moody', { file: recordingFile('moody.json', '{"ok":true}'), contentType: 'application/json' });
    web.setEngineMode('moody', { kind: 'ok' });
  });

  it('slow delays the answer', async () => {
    web.setEngineMode('moody', { kind: 'slow', delayMs: 200 });
    const started = performance.now();
    expect((await fetch(web.engineBaseUrl('moody'))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('hang never answers', async () => {
    web.setEngineMode('moody', { kind: 'hang' });
    await expect(fetch(web.engineBaseUrl('moody'), { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(web.engineRequests('moody').length).toBeGreaterThan(0);
  });

  it('fail answers the given status', async () => {
    web.setEngineMode('moody', { kind: 'fail', status: 503 });
    const res = await fetch(web.engineBaseUrl('moody'));
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('503');
  });

  it('rate_limited answers 429 with Retry-After: 60', async () => {
    web.setEngineMode('moody', { kind: 'rate_limited' });
    const res = await fetch(web.engineBaseUrl('moody'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
  });

  it('captcha answers 200 with the real Google block page', async () => {
    web.setEngineMode('moody', { kind: 'captcha' });
    const res = await fetch(web.engineBaseUrl('moody'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('g-recaptcha');
    expect(html).toContain('unusual traffic');
  });

  it('reset drops the connection', async () => {
    web.setEngineMode('moody', { kind: 'reset' });
    await expect(fetch(web.engineBaseUrl('moody'))).rejects.toThrow();
  });

  it('back to ok serves the recording again', async () => {
    web.setEngineMode('moody', { kind: 'fail', status: 500 });
    expect((await fetch(web.engineBaseUrl('moody'))).status).toBe(500);
    web.setEngineMode('moody', { kind: 'ok' });
    expect(await (await fetch(web.engineBaseUrl('moody'))).json()).toEqual({ ok: true });
  });
});

describe('pages', () => {
  it('serves every fixture page at /pages/<name>', async () => {
    const names = fixturePages().map((page) => page.name);
    expect(names).toEqual(expect.arrayContaining(['wikipedia-microsoft', 'blog-llm-tuning-math', 'js-only']));
    expect(names.filter((name) => name.startsWith('article-')).length).toBeGreaterThanOrEqual(2);
    for (const name of names) {
      const res = await fetch(web.pageUrl(name));
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toMatch(/<html/i);
    }
    expect(await (await fetch(web.pageUrl('wikipedia-microsoft'))).text()).toContain('Microsoft was founded by');
  });

  it('js-only has its sentence only inside the script', async () => {
    const html = await (await fetch(web.pageUrl('js-only'))).text();
    const withoutScripts = html.replace(/<script\b[\s\S]*?<\/script>/gi, '');
    expect(html).toContain('This paragraph was rendered by JavaScript.');
    expect(withoutScripts).not.toContain('rendered by JavaScript');
    expect(withoutScripts).not.toMatch(/<p>/);
  });

  it('serves a hand-written topic page for each topic', async () => {
    for (const topic of TOPIC_PAGES) {
      const html = await (await fetch(web.pageUrl(`topic/${topic.slug}`))).text();
      expect(html).toContain(`<h1>${topic.title}</h1>`);
      expect(html).toContain(topic.paragraphs[1]!.slice(0, 40));
    }
  });
});

describe('added pages', () => {
  it('serves the body with the given status, type, headers and delay', async () => {
    const url = web.addPage('/custom/feed.xml', '<rss/>', {
      contentType: 'application/rss+xml',
      status: 203,
      headers: { 'X-Test': 'yes' },
      delayMs: 100,
    });
    expect(url).toBe(`${web.url}/custom/feed.xml`);
    const started = performance.now();
    const res = await fetch(url);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(res.status).toBe(203);
    expect(res.headers.get('content-type')).toBe('application/rss+xml');
    expect(res.headers.get('x-test')).toBe('yes');
    expect(await res.text()).toBe('<rss/>');
  });

  it('defaults to 200 text/html, accepts a path without a slash, and prefers an exact query match', async () => {
    const plain = web.addPage('article', '<p>any query</p>');
    web.addPage('/article?id=2', '<p>second</p>');
    const res = await fetch(plain + '?id=1');
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toBe('<p>any query</p>');
    expect(await (await fetch(`${web.url}/article?id=2`)).text()).toBe('<p>second</p>');
  });

  it('can stand in for a 404 or a redirect', async () => {
    const missing = web.addPage('/gone', 'gone', { status: 410 });
    expect((await fetch(missing)).status).toBe(410);
    const moved = web.addPage('/moved', '', {
      status: 301,
      headers: { location: '/pages/topic/pacific-ocean-currents' },
    });
    const res = await fetch(moved);
    expect(res.url).toBe(web.pageUrl('topic/pacific-ocean-currents'));
  });
});

describe('robots.txt', () => {
  it('is 404 until set, then served, then 404 again when cleared', async () => {
    expect((await fetch(`${web.url}/robots.txt`)).status).toBe(404);
    web.setRobots('User-agent: *\nDisallow: /private/\n');
    const res = await fetch(`${web.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toBe('User-agent: *\nDisallow: /private/\n');
    web.setRobots(null);
    expect((await fetch(`${web.url}/robots.txt`)).status).toBe(404);
  });
});

describe('webhooks', () => {
  const post = (url: string, payload: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sig' },
      body: JSON.stringify(payload),
    });

  it('records body and headers and answers 200', async () => {
    const before = Date.now();
    const res = await post(web.webhookUrl('done'), { job: 1 });
    expect(res.status).toBe(200);
    const [delivery] = web.webhooks('done');
    expect(JSON.parse(delivery!.body)).toEqual({ job: 1 });
    expect(delivery!.headers['x-signature']).toBe('sig');
    expect(delivery!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(web.webhooks('other')).toEqual([]);
  });

  it('fails the first N deliveries with 500', async () => {
    web.setWebhookFailures('flaky', 2);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(web.webhookUrl('flaky'), { attempt: i })).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(web.webhooks('flaky').map((delivery) => delivery.status)).toEqual([500, 500, 200]);
  });

  it('answers the status set for the hook', async () => {
    web.setWebhookStatus('gone', 410);
    expect((await post(web.webhookUrl('gone'), {})).status).toBe(410);
  });

  it('waitForWebhook resolves when enough deliveries arrive and rejects on timeout', async () => {
    const waiting = web.waitForWebhook('later', 2, 2000);
    setTimeout(() => void post(web.webhookUrl('later'), { n: 1 }), 20);
    setTimeout(() => void post(web.webhookUrl('later'), { n: 2 }), 60);
    const deliveries = await waiting;
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).n)).toEqual([1, 2]);
    expect(await web.waitForWebhook('later')).toHaveLength(2);
    await expect(web.waitForWebhook('never', 1, 50)).rejects.toThrow(/never/);
  });
});

describe('close', () => {
  it('resolves promptly while a request hangs, and the hanging request fails', async () => {
    const own = await startSandboxWeb();
    own.playEngine('stuck', { file: recordingFile('stuck.txt', 'x'), contentType: 'text/plain' });
    own.setEngineMode('stuck', { kind: 'hang' });
    const slowPage = own.addPage('/slow', 'x', { delayMs: 60_000 });
    const hanging = fetch(own.engineBaseUrl('stuck')).then(
      () => 'answered',
      () => 'failed',
    );
    const delayed = fetch(slowPage).then(
      () => 'answered',
      () => 'failed',
    );
    // Both requests have reached the sandbox and are held there.
    await until('both requests to be held by the sandbox', async () => own.openRequests() === 2, 5000, 10);
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await hanging).toBe('failed');
    expect(await delayed).toBe('failed');
    await own.close(); // a second close is harmless
    await expect(fetch(own.url)).rejects.toThrow();
  });
});
