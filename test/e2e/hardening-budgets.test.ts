/**
 * Issue 17, cases 1–4: single requests that froze the server for minutes,
 * overflowed the stack or amplified themselves a thousandfold. Each is
 * replayed over HTTP; the answer must be a 2xx or a clear 4xx naming the
 * field, within the product's own deadlines, and /healthz must keep
 * answering within 1 s while it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { HEALTH_DEADLINE_MS, probeSummary, whileProbingHealth } from './health-probe.js';
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

async function attack(path: string, body: unknown) {
  let elapsedMs = 0;
  const report = await whileProbingHealth(quarry.url, async () => {
    const started = performance.now();
    const answer = await quarry.post(path, body);
    elapsedMs = performance.now() - started;
    return answer;
  });
  expect(report.result.status, JSON.stringify(report.result.body).slice(0, 300)).toBeLessThan(500);
  expect(report.worstHealthMs, probeSummary(path, report)).toBeLessThan(report.budgetMs);
  return { ...report.result, elapsedMs, worstHealthMs: report.worstHealthMs };
}

describe('1. discover-urls with a long URL and a pattern of alternatives and wildcards', () => {
  const pattern = '{a,b}'.repeat(8) + '*?'.repeat(230);

  it('refuses a 30,000-character base_url at once, naming it', async () => {
    const answer = await attack('/api/v1/enhanced/discover-urls', {
      base_url: `https://example.com/${'a'.repeat(30_000)}`,
      pattern,
      timeout: 5,
      max_depth: 0,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('base_url');
  });

  it('matches the pattern against the longest accepted URL well within its 5 s timeout', async () => {
    const baseUrl = `${web.url}/${'a'.repeat(2048 - web.url.length - 1)}`;
    const answer = await attack('/api/v1/enhanced/discover-urls', {
      base_url: baseUrl,
      pattern,
      timeout: 5,
      max_depth: 0,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.urls).toEqual([]);
    expect(answer.elapsedMs).toBeLessThan(5000);
  });

  it('stops link discovery at its timeout even when pages are slow', async () => {
    web.addPage('/slow-site/', '<a href="/slow-site/next">next</a>', { delayMs: 20_000 });
    const answer = await attack('/api/v1/enhanced/discover-urls', {
      base_url: `${web.url}/slow-site/`,
      timeout: 2,
      max_depth: 2,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'TIMEOUT' })]));
    // The product's deadline is the request's timeout; the answer follows it.
    expect(answer.elapsedMs).toBeLessThan(2000 + HEALTH_DEADLINE_MS);
  });
});

describe('2. extract-tables on deeply nested markup', () => {
  it('refuses 40,000 nested tables (600 KB) at once, naming html_content', async () => {
    const answer = await attack('/api/v1/enhanced/extract-tables', { html_content: '<table><tr><td>'.repeat(40_000) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(answer.body.error.message).toMatch(/^html_content: .*512 levels/);
  });

  it('refuses 200,000 nested <div>s before a table (1 MB), naming html_content', async () => {
    const html = '<div>'.repeat(200_000) + '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>';
    const answer = await attack('/api/v1/enhanced/extract-tables', { html_content: html });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('html_content');
  });

  it('reads tables nested as deep as browsers draw them', async () => {
    const answer = await attack('/api/v1/enhanced/extract-tables', {
      html_content: '<table><tr><td>x'.repeat(150),
      strategy: 'all',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total_tables).toBe(150);
  });

  it('keeps the server responsive through a megabyte of small tables (parsed in the worker pool)', async () => {
    const table = '<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>';
    const answer = await attack('/api/v1/enhanced/extract-tables', {
      html_content: table.repeat(Math.floor(1_000_000 / table.length)),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total_tables).toBeGreaterThan(10_000);
  });
});

describe('3. extract-tables with 130,000 rows', () => {
  it('answers without overflowing the stack', async () => {
    const answer = await attack('/api/v1/enhanced/extract-tables', {
      html_content: `<table>${'<tr>'.repeat(130_000)}</table>`,
      strategy: 'all',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.tables[0]).toMatchObject({ row_count: 0 });
  });
});

describe('4. amplification', () => {
  it('caps a colspan=1000 rowspan=0 cell over 40,000 rows at 4x the input, flagged truncated', async () => {
    const html = `<table><tr><td colspan=1000 rowspan=0>x</td></tr>${'<tr>'.repeat(40_000)}</table>`;
    const response = await fetch(`${quarry.url}/api/v1/enhanced/extract-tables`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789' },
      body: JSON.stringify({ html_content: html, strategy: 'all' }),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    // Was 160 MB for this 160 KB input.
    expect(text.length).toBeLessThan(4 * html.length + 256 * 1024 + 64 * 1024);
    const body = JSON.parse(text);
    expect(body.truncated).toBe(true);
    expect(body.tables[0]).toMatchObject({ truncated: true, column_count: 1000 });
    expect(body.tables[0].row_count).toBeGreaterThan(0);
  });

  it('refuses chunk overlaps that would repeat 490,000 words 16 times, naming overlap_tokens and what would fit', async () => {
    const answer = await attack('/api/v1/enhanced/chunk-content', {
      text: 'word '.repeat(196_000),
      strategy: 'fixed',
      max_tokens: 16,
      overlap_tokens: 15,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/^invalid input: overlap_tokens|^overlap_tokens/);
    expect(answer.body.error.details).toMatchObject({ field: 'overlap_tokens' });
  });

  it('chunks a megabyte with the smallest windows in the worker pool, the server answering meanwhile', async () => {
    const text = 'word '.repeat(200_000);
    const answer = await attack('/api/v1/enhanced/chunk-content', {
      text,
      strategy: 'fixed',
      max_tokens: 16,
      overlap_tokens: 0,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total_chunks).toBeGreaterThan(10_000);
    const chars = (answer.body.chunks as Array<{ text: string }>).reduce((sum, chunk) => sum + chunk.text.length, 0);
    expect(chars).toBeLessThanOrEqual(text.length);
  });
});
