/**
 * The Monitor API end to end, in process over HTTP, against the sandbox web:
 * a SearXNG-format engine whose results change as tests publish items, and
 * a webhook receiver. Every delivery is verified with the `standardwebhooks`
 * package and the secret the creation answer returned. Intervals are short
 * through monitor.testOnlyMinuteMs (one "minute" = 100 ms here).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCheckedEvent } from '../../app/events.js';
import { NewsFeed } from '../sandbox/news-feed.js';
import { startSandboxWeb, type SandboxWeb, type WebhookDelivery } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';
import { until } from '../sandbox/until.js';

const MINUTE_MS = 100;
const BASE = '/api/v1/monitor/topics';
let web: SandboxWeb;
let quarry: RunningQuarry;
const feed = new NewsFeed();
const checked: MonitorCheckedEvent[] = [];

beforeAll(async () => {
  web = await startSandboxWeb();
  web.answerEngine('searxng', feed.answerer());
  quarry = await startQuarry(web, {
    search: { defaultEngines: ['searxng'] },
    rateLimitPerMinute: 100_000,
    // A jitter of 1% of the interval, not the default 10%: a first check then waits at most 1.4 s, not 10 s
    // (schedule.test.ts covers the spread).
    monitor: { testOnlyMinuteMs: MINUTE_MS, sweepIntervalSeconds: 1, jitterShare: 0.01 },
    webhooks: { backoffBaseMs: 200, maxAttempts: 6, timeoutMs: 3000, concurrency: 1 },
  });
  quarry.app.services.events.on('monitor.checked', (event) => checked.push(event));
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

const item = (marker: string, n: number, extra = '') => ({
  url: `https://news.example.org/${marker}/${n}`,
  title: `${marker} story ${n}${extra}`,
  content: `The ${marker} project reported development number ${n}.`,
});

async function create(body: Record<string, unknown>) {
  const answer = await quarry.post(BASE, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const details = async (id: string) => (await quarry.get(`${BASE}/${id}`)).body;

/** Waits until the monitor has committed at least `n` checks. */
async function checksRun(id: string, n: number, timeout = 15_000) {
  return until(
    `${id} to commit ${n} checks`,
    async () => {
      const body = await details(id);
      if (body.checks_run < n) throw new Error(`${id}: ${body.checks_run} checks so far`);
      return body;
    },
    timeout,
  );
}

function verified(delivery: WebhookDelivery, secret: string): any {
  return new Webhook(secret).verify(delivery.body, delivery.headers);
}

describe('monitor lifecycle', () => {
  it('by default the first check alerts on everything it finds (its results are new content), signed verifiably', async () => {
    feed.set('firstline', [item('firstline', 1), item('firstline', 2)]);
    const created = await create({
      topic: 'firstline news',
      keywords: ['firstline'],
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('first'),
    });
    expect((await details(created.id)).alert_on_first_check).toBe(true);
    const [delivery] = await web.waitForWebhook('first', 1, 15_000);
    const payload = verified(delivery!, created.webhook_secret);
    expect(payload.new_results.map((r: { url: string }) => r.url).sort()).toEqual([
      item('firstline', 1).url,
      item('firstline', 2).url,
    ]);
    const [result] = (await quarry.get(`${BASE}/${created.id}/results`)).body;
    expect(result).toMatchObject({ id: payload.result_id, baseline: true });
    await until('the alert to be counted', async () => (await details(created.id)).alerts_sent === 1, 5000, 50);
  });

  it('with alert_on_first_check false: records a baseline, alerts once on what is new with a verifiable signature, and counts the delivery', async () => {
    feed.set('alphaline', [item('alphaline', 1), item('alphaline', 2)]);
    const created = await create({
      topic: 'alphaline news',
      keywords: ['alphaline'],
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('alpha'),
      alert_on_first_check: false,
    });
    expect(created).toMatchObject({
      status: 'active',
      last_checked: null,
      alerts_sent: 0,
      sources: null,
      check_interval_minutes: 1440,
      deep_analysis: false,
      webhook_signing: 'monitor_secret',
    });
    expect(created.id).toMatch(/^mon_[0-9a-f]{24}$/);
    expect(created.webhook_secret).toMatch(/^whsec_/);
    expect(Date.parse(created.next_check_at)).toBeGreaterThan(Date.now() - 5000);
    // The secret is shown once.
    expect((await details(created.id)).webhook_secret).toBeUndefined();

    // The first check is the baseline: stored, no alert.
    const afterBaseline = await checksRun(created.id, 1);
    expect(afterBaseline.last_checked).not.toBeNull();
    expect(afterBaseline.last_check).toMatchObject({ status: 'ok', results_found: 2, new_results: 2 });
    const baseline = (await quarry.get(`${BASE}/${created.id}/results`)).body;
    expect(baseline).toHaveLength(1);
    expect(baseline[0]).toMatchObject({ monitor_id: created.id, baseline: true, analysis_method: 'titles' });
    expect(baseline[0].id).toMatch(/^res_[0-9a-f]{24}$/);
    expect(baseline[0].new_results.map((r: { url: string }) => r.url).sort()).toEqual([
      item('alphaline', 1).url,
      item('alphaline', 2).url,
    ]);
    expect(web.webhooks('alpha')).toHaveLength(0);

    // Something new: a manual check finds it, stores it and alerts.
    feed.publish('alphaline', item('alphaline', 3));
    expect((await quarry.post(`${BASE}/${created.id}/check`, {})).body).toEqual({
      status: 'checking',
      monitor_id: created.id,
    });
    const [delivery] = await web.waitForWebhook('alpha', 1, 15_000);
    const payload = verified(delivery!, created.webhook_secret);
    expect(payload).toMatchObject({
      monitor_id: created.id,
      topic: 'alphaline news',
      new_results: [
        { url: item('alphaline', 3).url, title: item('alphaline', 3).title, snippet: item('alphaline', 3).content },
      ],
    });
    expect(payload.analysis).toMatch(/^1 new result: alphaline story 3/);
    expect(Date.parse(payload.timestamp)).toBeGreaterThan(Date.parse(afterBaseline.last_checked));
    const results = (await quarry.get(`${BASE}/${created.id}/results`)).body;
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      id: payload.result_id,
      baseline: false,
      new_results: payload.new_results,
      analysis: payload.analysis,
      timestamp: payload.timestamp,
    });
    const afterAlert = await until(
      'the alert to be counted',
      async () => {
        const body = await details(created.id);
        if (body.alerts_sent !== 1) throw new Error('not counted yet');
        return body;
      },
      5000,
      50,
    );
    expect(afterAlert.deliveries).toEqual([
      expect.objectContaining({
        webhook_id: delivery!.headers['webhook-id'],
        result_id: payload.result_id,
        status: 'delivered',
        attempts: 1,
        last_error: null,
      }),
    ]);

    // Checked again with nothing new: no result, no alert for a URL already alerted on (http/https and www. alike).
    feed.publish('alphaline', { ...item('alphaline', 3), url: 'http://www.news.example.org/alphaline/3/' });
    await quarry.post(`${BASE}/${created.id}/check`, {});
    const quiet = await checksRun(created.id, 3);
    expect(quiet.last_check).toMatchObject({ new_results: 0, results_found: 3 });
    expect((await quarry.get(`${BASE}/${created.id}/results`)).body).toHaveLength(2);
    expect(web.webhooks('alpha')).toHaveLength(1);
  });

  it('lists active and paused monitors (status filters), pauses and resumes idempotently, deletes with results and schedule', async () => {
    feed.set('betaline', [item('betaline', 1)]);
    const a = await create({ topic: 'betaline', keywords: ['betaline'], check_interval_minutes: 1440 });
    expect(a).toMatchObject({ webhook_url: null, webhook_secret: null, webhook_signing: null });
    await checksRun(a.id, 1);
    const listed = (await quarry.get(BASE)).body;
    expect(listed.find((m: { id: string }) => m.id === a.id)).toEqual({
      id: a.id,
      topic: 'betaline',
      keywords: ['betaline'],
      status: 'active',
      last_checked: expect.any(String),
      alerts_sent: 0,
      created_at: a.created_at,
    });
    // No body, and a body-less POST labelled JSON, both work.
    const noType = await fetch(`${quarry.url}${BASE}/${a.id}/pause`, {
      method: 'POST',
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    expect(noType.status).toBe(200);
    const labelled = await fetch(`${quarry.url}${BASE}/${a.id}/pause`, {
      method: 'POST',
      headers: { 'x-api-key': 'test-key-0123456789', 'content-type': 'application/json' },
    });
    expect(await labelled.json()).toEqual({ status: 'paused', monitor_id: a.id });
    expect((await details(a.id)).next_check_at).toBeNull();
    expect((await quarry.get(`${BASE}?status=paused`)).body.map((m: { id: string }) => m.id)).toContain(a.id);
    expect((await quarry.get(`${BASE}?status=active`)).body.map((m: { id: string }) => m.id)).not.toContain(a.id);
    expect((await quarry.get(BASE)).body.find((m: { id: string }) => m.id === a.id).status).toBe('paused');

    // A manual check of a paused monitor runs; it stays paused.
    feed.publish('betaline', item('betaline', 2));
    await quarry.post(`${BASE}/${a.id}/check`, {});
    const checkedWhilePaused = await checksRun(a.id, 2);
    expect(checkedWhilePaused).toMatchObject({ status: 'paused', next_check_at: null });
    expect(checkedWhilePaused.last_check.new_results).toBe(1);

    expect((await quarry.post(`${BASE}/${a.id}/resume`, {})).body).toEqual({ status: 'active', monitor_id: a.id });
    expect((await quarry.post(`${BASE}/${a.id}/resume`, {})).body).toEqual({ status: 'active', monitor_id: a.id });
    expect(Date.parse((await details(a.id)).next_check_at)).toBeGreaterThan(Date.now());

    const removed = await quarry.server.inject({
      method: 'DELETE',
      url: `${BASE}/${a.id}`,
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    expect(removed.json()).toEqual({ deleted: true, monitor_id: a.id });
    for (const path of [`${BASE}/${a.id}`, `${BASE}/${a.id}/results`])
      expect((await quarry.get(path)).status).toBe(404);
    const again = await quarry.server.inject({
      method: 'DELETE',
      url: `${BASE}/${a.id}`,
      headers: { 'x-api-key': 'test-key-0123456789' },
    });
    expect(again.statusCode).toBe(404);
    expect((await quarry.get(BASE)).body.map((m: { id: string }) => m.id)).not.toContain(a.id);
    expect(await quarry.app.services.jobs.get(`check_${a.id}_${checkedWhilePaused.checks_run + 1}`)).toMatchObject({
      status: 'failed',
      error: { code: 'CANCELLED' },
    });
  });

  it('runs concurrent manual checks of one monitor as one check', async () => {
    feed.set('gammaline', [item('gammaline', 1)]);
    const m = await create({ topic: 'gammaline', keywords: ['gammaline'], check_interval_minutes: 1440 });
    await checksRun(m.id, 1);
    const before = feed.queriesFor('gammaline').length;
    // A slow engine keeps the first check running while the other requests arrive.
    web.answerEngine('searxng', feed.answerer(), { delayMs: 1500 });
    try {
      await Promise.all([1, 2, 3, 4].map(() => quarry.post(`${BASE}/${m.id}/check`, {})));
      await until('the first check to be running', async () => (await details(m.id)).check_in_progress === true, 5000);
      await quarry.post(`${BASE}/${m.id}/check`, {});
      await checksRun(m.id, 2);
    } finally {
      web.answerEngine('searxng', feed.answerer());
    }
    expect(feed.queriesFor('gammaline').length - before).toBe(1);
    // A later check runs after anything those requests queued: once it has, still one search for them.
    await quarry.post(`${BASE}/${m.id}/check`, {});
    await checksRun(m.id, 3);
    const after = await until(
      'the last check to finish',
      async () => {
        const body = await details(m.id);
        if (body.check_in_progress) throw new Error('the check is still finishing');
        return body;
      },
      5000,
      50,
    );
    expect(feed.queriesFor('gammaline').length - before).toBe(2);
    expect(after.checks_run).toBe(3);
  });
});

describe('checks', () => {
  it('search the sources as site filters and keep only results on them and about the keywords', async () => {
    feed.set('deltaline', [
      item('deltaline', 1),
      {
        url: 'https://blog.other.example/deltaline',
        title: 'deltaline elsewhere',
        content: 'deltaline on another site',
      },
      { url: 'https://news.example.org/unrelated', title: 'Weather today', content: 'rain all day' },
    ]);
    const m = await create({
      topic: 'deltaline',
      keywords: ['deltaline'],
      sources: ['https://www.News.Example.org/world', 'example.net'],
      check_interval_minutes: 1440,
    });
    expect(m.sources).toEqual(['news.example.org', 'example.net']);
    const after = await checksRun(m.id, 1);
    expect(feed.queriesFor('deltaline').at(-1)).toContain('(site:news.example.org or site:example.net)');
    expect(after.last_check.results_found).toBe(1);
    const [baseline] = (await quarry.get(`${BASE}/${m.id}/results`)).body;
    expect(baseline.new_results.map((r: { url: string }) => r.url)).toEqual([item('deltaline', 1).url]);
  });

  it('with deep_analysis read the new pages and summarise them extractively without an LLM, saying so', async () => {
    const page = web.addPage(
      '/monitor/epsiline-report',
      '<html><head><title>Epsiline report</title></head><body><article><h1>Epsiline report</h1>' +
        '<p>Markets were calm on Tuesday and nothing else happened in the city.</p>' +
        '<p>The epsiline reactor reached full power for the first time, its operators said, after three ' +
        'years of construction.</p>' +
        '<p>Visitors are welcome at the museum on weekends.</p></article></body></html>',
    );
    feed.set('epsiline', []);
    const m = await create({
      topic: 'epsiline reactor',
      keywords: ['epsiline'],
      deep_analysis: true,
      alert_on_first_check: true,
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('epsi'),
    });
    feed.publish('epsiline', { url: page, title: 'Epsiline report', content: 'A report.' });
    await quarry.post(`${BASE}/${m.id}/check`, {});
    const [delivery] = await web.waitForWebhook('epsi', 1, 20_000);
    const payload = verified(delivery!, m.webhook_secret);
    expect(payload.analysis).toContain('The epsiline reactor reached full power for the first time');
    expect(payload.analysis).not.toContain('Visitors are welcome');
    const [result] = (await quarry.get(`${BASE}/${m.id}/results`)).body;
    expect(result).toMatchObject({ analysis_method: 'extractive', model_used: null, analysis: payload.analysis });
  });

  it('run on schedule, every interval from last_checked, each committed once', async () => {
    feed.set('zetaline', [item('zetaline', 1)]);
    const m = await create({ topic: 'zetaline', keywords: ['zetaline'], check_interval_minutes: 5 });
    const start = Date.now();
    await checksRun(m.id, 4, 20_000);
    // A check is committed (and counted) before its alerts are flushed and its event is sent.
    const mine = await until(
      'four checked events',
      async () => {
        const events = checked.filter((event) => event.monitorId === m.id);
        if (events.length < 4) throw new Error(`${events.length} checked events so far`);
        return events;
      },
      5000,
      20,
    );
    // 5 "minutes" of 100 ms: 500 ms apart, ± the jitter (1% of the interval).
    const gaps = mine.slice(1).map((event, i) => event.startedAt - mine[i]!.startedAt);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(480);
    for (const event of mine) expect(event.startedAt - event.scheduledFor!).toBeLessThan(1000);
    expect(feed.queriesFor('zetaline').length).toBe((await details(m.id)).checks_run);
    expect(Date.now() - start).toBeGreaterThan(1400);
    await quarry.post(`${BASE}/${m.id}/pause`, {});
  });
});

describe('webhook deliveries', () => {
  it('retry a failing receiver with growing delays under one webhook-id, and count the alert only once delivered', async () => {
    web.setWebhookFailures('flaky', 3);
    feed.set('etaline', [item('etaline', 1)]);
    const m = await create({
      topic: 'etaline',
      keywords: ['etaline'],
      alert_on_first_check: true,
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('flaky'),
    });
    await web.waitForWebhook('flaky', 1, 15_000);
    const pending = await details(m.id);
    expect(pending.alerts_sent).toBe(0);
    expect(pending.deliveries[0]).toMatchObject({ status: 'pending' });
    const deliveries = await web.waitForWebhook('flaky', 4, 20_000);
    expect(deliveries.map((d) => d.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    for (const delivery of deliveries) expect(verified(delivery, m.webhook_secret).monitor_id).toBe(m.id);
    const gaps = deliveries.slice(1).map((d, i) => d.receivedAt - deliveries[i]!.receivedAt);
    // Attempt n waits between half and all of 200 ms · 2^(n-1).
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);
    const done = await until(
      'the alert to be counted',
      async () => {
        const body = await details(m.id);
        if (body.alerts_sent !== 1) throw new Error('not counted yet');
        return body;
      },
      5000,
      50,
    );
    // last_error keeps the last failed attempt's.
    expect(done.deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 4,
      last_error: 'HTTP 500',
      next_attempt_at: null,
    });
    expect(Date.parse(done.deliveries[0].delivered_at)).toBeGreaterThanOrEqual(deliveries[3]!.receivedAt - 1000);
  });

  it('let a receiver that hangs hold up no other monitor’s checks', async () => {
    web.setWebhookHang('stuck', 1000);
    feed.set('thetaline', [item('thetaline', 1)]);
    feed.set('iotaline', [item('iotaline', 1)]);
    const stuck = await create({
      topic: 'thetaline',
      keywords: ['thetaline'],
      alert_on_first_check: true,
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('stuck'),
    });
    await web.waitForWebhook('stuck', 1, 15_000);
    // The only delivery slot (webhooks.concurrency 1) now waits on the receiver.
    const other = await create({ topic: 'iotaline', keywords: ['iotaline'], check_interval_minutes: 5 });
    await checksRun(other.id, 4, 20_000);
    const mine = checked.filter((event) => event.monitorId === other.id);
    for (const event of mine) expect(event.startedAt - event.scheduledFor!).toBeLessThan(1000);
    expect((await details(stuck.id)).deliveries[0].status).toBe('pending');
    await quarry.post(`${BASE}/${other.id}/pause`, {});
  });
});

describe('bad input', () => {
  const valid = { topic: 't', keywords: ['k'] };
  it.each([
    ['check_interval_minutes', { ...valid, check_interval_minutes: 4 }],
    ['check_interval_minutes', { ...valid, check_interval_minutes: 1441 }],
    ['check_interval_minutes', { ...valid, check_interval_minutes: 60.5 }],
    ['keywords', { ...valid, keywords: [] }],
    ['keywords', { ...valid, keywords: ['  '] }],
    ['keywords', { topic: 't' }],
    ['topic', { keywords: ['k'] }],
    ['webhook_url', { ...valid, webhook_url: 'ftp://example.org/hook' }],
    ['webhook_url', { ...valid, webhook_url: 'not a url' }],
    ['webhook_url', { ...valid, webhook_url: 'http://10.1.2.3/hook' }],
    ['webhook_url', { ...valid, webhook_url: 'http://127.0.0.1:9/hook' }],
    ['sources', { ...valid, sources: ['not a domain!'] }],
    ['engines', { ...valid, engines: ['no_such_engine'] }],
  ])('refuses %s: %j', async (field, body) => {
    const answer = await quarry.post(BASE, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.message).toContain(field);
  });

  it('answers 404 naming monitor_id for an unknown id on every route, 400 for a malformed one', async () => {
    const unknown = 'mon_000000000000000000000000';
    const routes: Array<[string, string]> = [
      ['GET', `${BASE}/${unknown}`],
      ['POST', `${BASE}/${unknown}/pause`],
      ['POST', `${BASE}/${unknown}/resume`],
      ['POST', `${BASE}/${unknown}/check`],
      ['GET', `${BASE}/${unknown}/results`],
      ['DELETE', `${BASE}/${unknown}`],
    ];
    for (const [method, url] of routes) {
      const answer = await quarry.server.inject({
        method: method as 'GET',
        url,
        headers: { 'x-api-key': 'test-key-0123456789' },
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().error.message).toContain('monitor_id');
      const malformed = await quarry.server.inject({
        method: method as 'GET',
        url: url.replace(unknown, 'mon_nope'),
        headers: { 'x-api-key': 'test-key-0123456789' },
      });
      expect(malformed.statusCode, `${method} malformed`).toBe(400);
      expect(malformed.json().error.message).toContain('monitor_id');
    }
    for (const limit of ['0', '101', 'ten']) {
      const answer = await quarry.get(`${BASE}/${unknown}/results?limit=${limit}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain('limit');
    }
  });

  it('ignores unknown top-level fields over HTTP and names them', async () => {
    feed.set('kappaline', []);
    const answer = await quarry.post(BASE, {
      topic: 'kappaline',
      keywords: ['kappaline'],
      check_interval_minutes: 1440,
      interval: 5,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-quarry-ignored-fields')).toBe('interval');
    expect(answer.body.check_interval_minutes).toBe(1440);
  });
});
