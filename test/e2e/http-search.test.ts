/**
 * The Search API end to end over HTTP against the sandbox web: merging,
 * deadlines, truthful failure reports, suspension, cache, relevance filter,
 * markdown, scraping (static and JavaScript), the private-address guard,
 * async mode with a signed webhook, batch and cancellation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { playDefaultEngines, searxngAnswer } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, WEBHOOK_SECRET, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

let web: SandboxWeb;
let quarry: RunningQuarry;
let scratch: string;

const quick = { scrape_content: false, cache_ttl: 0 };

beforeAll(async () => {
  web = await startSandboxWeb();
  playDefaultEngines(web);
  quarry = await startQuarry(web);
  scratch = mkdtempSync(join(tmpdir(), 'quarry-search-'));
});

afterEach(() => {
  for (const engine of ['duckduckgo', 'bing', 'wikipedia', 'google', 'searxng'])
    web.setEngineMode(engine, { kind: 'ok' });
});

afterAll(async () => {
  await quarry?.close();
  await web?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('merging and scoring', () => {
  it('merges duplicates across engines and keeps every engine that found them', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo', 'bing'],
      max_results: 30,
      ...quick,
    });
    expect(res.status).toBe(200);
    const meta = res.body.search_metadata;
    expect(meta.engines_used).toEqual(['duckduckgo', 'bing']);
    expect(meta.engines_succeeded.sort()).toEqual(['bing', 'duckduckgo']);
    expect(meta.engines_failed).toEqual([]);
    const both = res.body.results.filter((r: any) => r.engines.length === 2);
    expect(both.length).toBeGreaterThan(2);
    expect(res.body.results.some((r: any) => /wiki\/Hello$/.test(r.url) && r.engines.length === 2)).toBe(true);
    const urls = res.body.results.map((r: any) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    const scores = res.body.results.map((r: any) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.body.results.map((r: any) => r.rank)).toEqual(res.body.results.map((_: unknown, i: number) => i + 1));
    expect(res.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(res.body.total_results).toBe(res.body.results.length);
  });

  it('explains the score of each result on request', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo', 'bing'],
      explain: true,
      ...quick,
    });
    const top = res.body.results[0];
    expect(top.explanation.formula).toContain('weight');
    expect(top.explanation.contributions.map((c: any) => c.engine).sort()).toEqual([...top.engines].sort());
    for (const c of top.explanation.contributions) expect(c.position).toBeGreaterThan(0);
  });
});

describe('paging', () => {
  it('asks engines that page for further pages when max_results needs more', async () => {
    const before = web.engineRequests('duckduckgo').length;
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo', 'wikipedia'],
      max_results: 60,
      relevance_filter: false,
      ...quick,
    });
    expect(res.status).toBe(200);
    // The sandbox serves the same page again: the second page adds nothing new, so paging stops there.
    expect(web.engineRequests('duckduckgo').length - before).toBe(2);
    const second = web.engineRequests('duckduckgo').at(-1)!;
    expect(second.body + second.url).toMatch(/s=\d+/);
  });
});

describe('deadlines and failures', () => {
  it('does not let a hanging engine hold the answer past the timeout', async () => {
    web.setEngineMode('bing', { kind: 'hang' });
    const started = Date.now();
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo', 'bing'],
      timeout: 2,
      ...quick,
    });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(elapsed).toBeLessThan(3500);
    expect(res.body.search_metadata.engines_failed).toEqual(['bing']);
    expect(res.body.search_metadata.engine_errors.bing.code).toBe('TIMEOUT');
    expect(res.body.search_metadata.engines_succeeded).toEqual(['duckduckgo']);
    expect(res.body.results.length).toBeGreaterThan(0);
  });

  it('reports an engine that fails with its reason', async () => {
    web.setEngineMode('bing', { kind: 'fail', status: 500 });
    const res = await quarry.post('/api/v1/search/', { query: 'hello', engines: ['duckduckgo', 'bing'], ...quick });
    expect(res.body.search_metadata.engines_failed).toEqual(['bing']);
    expect(res.body.search_metadata.engine_errors.bing.message).toContain('500');
  });

  it('suspends an engine that serves a CAPTCHA, reports it, and answers from the others', async () => {
    const isolated = await startQuarry(web);
    try {
      web.setEngineMode('google', { kind: 'captcha' });
      const first = await isolated.post('/api/v1/search/', {
        query: 'hello',
        engines: ['google', 'duckduckgo'],
        ...quick,
      });
      expect(first.status).toBe(200);
      expect(first.body.search_metadata.engines_failed).toEqual(['google']);
      expect(first.body.search_metadata.engine_errors.google.code).toBe('ENGINE_CAPTCHA');
      expect(first.body.results.length).toBeGreaterThan(0);

      const catalogue = await isolated.get('/api/v1/search/engines');
      const google = catalogue.body.engines.google;
      expect(Date.parse(google.suspended_until) - Date.now()).toBeGreaterThan(3000 * 1000);
      expect(google.recent_error_rate).toBe(1);

      const before = web.engineRequests('google').length;
      const second = await isolated.post('/api/v1/search/', {
        query: 'hello',
        engines: ['google', 'duckduckgo'],
        ...quick,
      });
      expect(second.body.search_metadata.engine_errors.google.code).toBe('ENGINE_SUSPENDED');
      expect(web.engineRequests('google').length).toBe(before);
    } finally {
      await isolated.close();
    }
  });

  it('suspends an engine for about 180 s after a 429', async () => {
    const isolated = await startQuarry(web);
    try {
      web.setEngineMode('bing', { kind: 'rate_limited' });
      const res = await isolated.post('/api/v1/search/', { query: 'hello', engines: ['bing', 'duckduckgo'], ...quick });
      expect(res.body.search_metadata.engine_errors.bing.code).toBe('ENGINE_RATE_LIMITED');
      const catalogue = await isolated.get('/api/v1/search/engines');
      const left = Date.parse(catalogue.body.engines.bing.suspended_until) - Date.now();
      expect(left).toBeGreaterThan(170_000);
      expect(left).toBeLessThanOrEqual(180_000);
    } finally {
      await isolated.close();
    }
  });

  it('reports an engine that needs a key as failed with the reason', async () => {
    const res = await quarry.post('/api/v1/search/', { query: 'hello', engines: ['brave', 'duckduckgo'], ...quick });
    expect(res.body.search_metadata.engines_failed).toEqual(['brave']);
    expect(res.body.search_metadata.engine_errors.brave.code).toBe('ENGINE_DISABLED');
    expect(res.body.search_metadata.engine_errors.brave.message).toContain('API key');
  });
});

describe('cache, relevance and output', () => {
  it('answers a repeated identical request from the cache', async () => {
    const body = { query: 'hello', engines: ['duckduckgo'], scrape_content: false, cache_ttl: 60 };
    const first = await quarry.post('/api/v1/search/', body);
    const requests = web.engineRequests('duckduckgo').length;
    const second = await quarry.post('/api/v1/search/', body);
    expect(first.body.cached).toBe(false);
    expect(second.body.cached).toBe(true);
    expect(second.body.results).toEqual(first.body.results);
    expect(second.body.request_id).not.toBe(first.body.request_id);
    expect(web.engineRequests('duckduckgo').length).toBe(requests);
    const different = await quarry.post('/api/v1/search/', { ...body, max_results: 5 });
    expect(different.body.cached).toBe(false);
  });

  it('sends a cache hit as the same JSON a fresh answer is, per-request fields its own', async () => {
    const body = { query: 'hello', engines: ['duckduckgo'], scrape_content: false, cache_ttl: 60, max_results: 7 };
    const first = await quarry.post('/api/v1/search/', body);
    const hits = [await quarry.post('/api/v1/search/', body), await quarry.post('/api/v1/search/', body)];
    for (const hit of hits) {
      expect(hit.body.cached).toBe(true);
      expect(hit.headers.get('content-type')).toBe(first.headers.get('content-type'));
      // The bytes are what JSON.stringify writes, field for field in the same order.
      expect(Number(hit.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(hit.body)));
      expect(Object.keys(hit.body)).toEqual(Object.keys(first.body));
      expect(hit.body.search_metadata).toEqual(first.body.search_metadata);
      expect(hit.body.results).toEqual(first.body.results);
    }
    expect(hits[0]!.body.request_id).not.toBe(hits[1]!.body.request_id);
    // A hit whose answer changes after the cache (webhook_url without async_mode) is sent changed.
    const noted = await quarry.post('/api/v1/search/', { ...body, webhook_url: 'https://hooks.example.org/x' });
    expect(noted.body.cached).toBe(true);
    expect(noted.body.search_metadata.webhook_unused).toBe(true);
    const markdown = await quarry.post('/api/v1/search/', { ...body, output_format: 'markdown' });
    expect(markdown.body.cached).toBe(true);
    expect(markdown.body.markdown).toContain('hello');
  });

  it('drops unrelated results with the relevance filter and says so', async () => {
    const unrelated = await quarry.post('/api/v1/search/', {
      query: 'lattice quantum chromodynamics',
      engines: ['duckduckgo'],
      ...quick,
    });
    expect(unrelated.body.results).toEqual([]);
    expect(unrelated.body.search_metadata.relevance_filtered).toBe(true);
    expect(unrelated.body.search_metadata.total_results_found).toBeGreaterThan(5);

    const related = await quarry.post('/api/v1/search/', { query: 'hello', engines: ['duckduckgo'], ...quick });
    expect(related.body.results.length).toBeGreaterThan(5);

    const strict = await quarry.post('/api/v1/search/', {
      query: 'hello magazine',
      engines: ['duckduckgo'],
      min_relevance_score: 0.7,
      max_results: 50,
      ...quick,
    });
    expect(strict.body.search_metadata.relevance_filtered).toBe(true);
    expect(strict.body.results.length).toBeGreaterThan(0);
    for (const r of strict.body.results) expect(r.relevance_score).toBeGreaterThanOrEqual(0.7);

    const off = await quarry.post('/api/v1/search/', {
      query: 'lattice quantum chromodynamics',
      engines: ['duckduckgo'],
      relevance_filter: false,
      ...quick,
    });
    expect(off.body.results.length).toBeGreaterThan(5);
    expect(off.body.search_metadata.relevance_filtered).toBe(false);
  });

  it('renders the whole answer as markdown', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      output_format: 'markdown',
      max_results: 3,
      ...quick,
    });
    expect(res.status).toBe(200);
    expect(res.body.markdown).toMatch(/^# Search results: hello/);
    for (const r of res.body.results) expect(res.body.markdown).toContain(r.url);
    const json = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      max_results: 3,
      ...quick,
    });
    expect(json.body.markdown).toBeUndefined();
  });
});

describe('scraping', () => {
  it('fetches and extracts the result pages', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      max_results: 3,
      cache_ttl: 0,
      output_format: 'markdown',
    });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBe(3);
    for (const r of res.body.results) {
      const page = r.scraped_content;
      expect(page.extraction_success, JSON.stringify(page).slice(0, 300)).toBe(true);
      expect(page.word_count).toBeGreaterThan(50);
      expect(page.text.length).toBeGreaterThan(200);
      expect(page.content_quality_score).toBeGreaterThan(0);
      expect(page.markdown.length).toBeGreaterThan(100);
      expect(Array.isArray(page.images)).toBe(true);
      expect(Array.isArray(page.links)).toBe(true);
    }
    expect(res.body.markdown).toContain('### Content');
  });

  it('leaves out images and links when asked', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      max_results: 2,
      cache_ttl: 0,
      include_images: false,
      include_links: false,
    });
    for (const r of res.body.results) {
      expect(r.scraped_content.images).toEqual([]);
      expect(r.scraped_content.links).toEqual([]);
    }
  });

  it('renders JavaScript-only pages with js_mode', async () => {
    web.playEngine(
      'searxng',
      searxngAnswer(scratch, 'js', 'rendered page', [
        { url: web.pageUrl('js-only'), title: 'Rendered page test', content: 'a rendered page' },
      ]),
      { rewriteLinks: false },
    );
    const body = { query: 'rendered page', engines: ['searxng'], cache_ttl: 0, relevance_filter: false };
    const withJs = await quarry.post('/api/v1/search/', { ...body, js_mode: true });
    expect(withJs.status).toBe(200);
    expect(withJs.body.results[0].scraped_content.text).toContain('This paragraph was rendered by JavaScript.');
    const withoutJs = await quarry.post('/api/v1/search/', body);
    expect(withoutJs.body.results[0].scraped_content.text).not.toContain('rendered by JavaScript');
  });

  it('refuses to fetch a private address that is not allowed', async () => {
    const privateUrl = 'http://127.0.0.1:9/internal/admin';
    web.playEngine(
      'searxng',
      searxngAnswer(scratch, 'private', 'internal admin', [
        { url: privateUrl, title: 'Internal admin page', content: 'internal admin' },
      ]),
      { rewriteLinks: false },
    );
    const res = await quarry.post('/api/v1/search/', { query: 'internal admin', engines: ['searxng'], cache_ttl: 0 });
    expect(res.status).toBe(200);
    const page = res.body.results[0].scraped_content;
    expect(page.extraction_success).toBe(false);
    expect(page.failure_reason).toMatch(/refused/);
  });

  it('bounds scraping by the request timeout', async () => {
    const slow = web.addPage(
      '/slow/page',
      '<html><head><title>Slow page</title></head><body><p>slow slow slow</p></body></html>',
      { delayMs: 10_000 },
    );
    web.playEngine(
      'searxng',
      searxngAnswer(scratch, 'slow', 'slow page', [{ url: slow, title: 'Slow page', content: 'slow page' }]),
      { rewriteLinks: false },
    );
    const started = Date.now();
    const res = await quarry.post('/api/v1/search/', {
      query: 'slow page',
      engines: ['searxng'],
      cache_ttl: 0,
      timeout: 2,
    });
    expect(Date.now() - started).toBeLessThan(3500);
    const page = res.body.results[0].scraped_content;
    expect(page.extraction_success).toBe(false);
    expect(page.failure_reason).toBe('timeout');
  });
});

describe('async mode, batch and cancellation', () => {
  it('answers 202 at once, stores the result and delivers a signed webhook', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      scrape_content: false,
      async_mode: true,
      webhook_url: web.webhookUrl('search-done'),
    });
    expect(res.status).toBe(202);
    expect(['pending', 'processing']).toContain(res.body.status);
    expect(res.body.request_id).toMatch(/^req_/);
    expect(res.body.job_id).toBe(res.body.request_id);
    expect(res.body.status_url).toContain(`/api/v1/search/jobs/${res.body.request_id}`);

    const [delivery] = await web.waitForWebhook('search-done', 1, 15_000);
    // Standard Webhooks: any conforming library verifies it with the secret, and refuses it with another.
    expect(new Webhook(WEBHOOK_SECRET).verify(delivery!.body, delivery!.headers)).toEqual(JSON.parse(delivery!.body));
    expect(() =>
      new Webhook('whsec_YW5vdGhlci1zZWNyZXQtZW50aXJlbHktMDEyMzQ1Njc4OQ==').verify(delivery!.body, delivery!.headers),
    ).toThrow(/signature/);
    const payload = JSON.parse(delivery!.body);
    expect(payload.request_id).toBe(res.body.request_id);
    expect(payload.status).toBe('completed');
    expect(payload.result.results.length).toBeGreaterThan(0);

    const status = await until(
      'the job status to show the webhook delivered',
      async () => {
        // The path clients of the original service poll: an alias of /api/v1/search/jobs/{id}.
        const answer = await quarry.get(`/api/v1/search/status/${res.body.job_id}`);
        return answer.body.webhook?.status === 'delivered' && answer;
      },
      5_000,
    );
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('completed');
    expect(status.body.job_id).toBe(res.body.job_id);
    expect(status.body.results.length).toBe(payload.result.results.length);
    expect(status.body.results).toEqual(status.body.result.results);
    expect(status.body.webhook.status).toBe('delivered');
    expect(status.body.webhook.webhook_id).toBe(delivery!.headers['webhook-id']);
    expect((await quarry.get(`/api/v1/search/jobs/${res.body.job_id}`)).body).toEqual(status.body);
  });

  it('accepts webhook_url without async_mode, leaves it unused and says so', async () => {
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      ...quick,
      webhook_url: web.webhookUrl('unused-hook'),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    expect(res.body.search_metadata.webhook_unused).toBe(true);
    expect(web.webhooks('unused-hook')).toEqual([]);
  });

  it('retries a webhook that fails at first', async () => {
    web.setWebhookFailures('flaky', 1);
    const res = await quarry.post('/api/v1/search/', {
      query: 'hello',
      engines: ['duckduckgo'],
      scrape_content: false,
      async_mode: true,
      webhook_url: web.webhookUrl('flaky'),
    });
    const deliveries = await web.waitForWebhook('flaky', 2, 20_000);
    expect(deliveries.length).toBe(2);
    expect(JSON.parse(deliveries[1]!.body).request_id).toBe(res.body.request_id);
  });

  it('runs a batch and reports the failing query', async () => {
    const ok = searxngAnswer(scratch, 'batch-ok', 'alpha', [
      { url: 'https://example.org/alpha', title: 'Alpha result', content: 'alpha' },
    ]);
    web.playEngine('searxng', [ok, { ...ok, status: 500 }], { rewriteLinks: false });
    const res = await quarry.post('/api/v1/search/batch', {
      queries: ['alpha', 'beta'],
      engines: ['searxng'],
      parallel_requests: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.batch_id).toMatch(/^batch_/);
    expect(res.body.queries_processed).toBe(1);
    expect(res.body.queries_failed).toBe(1);
    expect(res.body.results.alpha[0]).toEqual({
      title: 'Alpha result',
      url: 'https://example.org/alpha',
      snippet: 'alpha',
    });
    expect(res.body.errors.beta).toContain('searxng');
    // Spec: results maps each query string; a failed query keeps its key with no results.
    expect(res.body.results.beta).toEqual([]);
    expect(Object.keys(res.body.results).sort()).toEqual(['alpha', 'beta']);
  });

  it('stops the work when the client disconnects', async () => {
    web.setEngineMode('bing', { kind: 'hang' });
    const seen = new Promise<{ status: string; durationMs: number }>((resolve) => {
      quarry.app.services.events.on('capability.called', (event) => {
        if (event.id === 'search.web') resolve(event);
      });
    });
    const controller = new AbortController();
    const request = fetch(`${quarry.url}/api/v1/search/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789' },
      body: JSON.stringify({ query: 'hello', engines: ['bing'], timeout: 60, ...quick }),
      signal: controller.signal,
    }).catch(() => null);
    setTimeout(() => controller.abort(), 300);
    const event = await seen;
    await request;
    expect(event.status).toBe('CANCELLED');
    expect(event.durationMs).toBeLessThan(5000);
  });
});
