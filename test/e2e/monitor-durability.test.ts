/**
 * Monitors across crashes and across instances, with real `quarry serve`
 * processes (the built package):
 *   - SIGKILL in the middle of a check, then in the middle of a webhook
 *     delivery; after each restart every monitor, result and schedule is
 *     intact, the check's alert arrives once, the delivery that was in
 *     flight arrives again with the same webhook-id, and nothing is alerted
 *     twice;
 *   - two instances on one Redis run each scheduled check exactly once over
 *     several intervals (one "minute" = 200 ms through monitor.testOnlyMinuteMs).
 * Every delivery is verified with the `standardwebhooks` package.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NewsFeed } from '../sandbox/news-feed.js';
import { hasRedisServer } from '../sandbox/local-redis.js';
import { redisForThisSuite } from '../sandbox/redis-hooks.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { fleet, type QuarryProcess } from './quarry-process.js';
import { until } from '../sandbox/until.js';

const KEY = 'monitor-durability-key-0123';
const BASE = '/api/v1/monitor/topics';

let web: SandboxWeb;
const feed = new NewsFeed();
const instances = fleet(() => web, [KEY]);

beforeAll(async () => {
  web = await startSandboxWeb();
  web.answerEngine('searxng', feed.answerer());
});

afterAll(async () => {
  await instances.killAll();
  await web?.close();
  instances.removeDirs();
});

const item = (marker: string, n: number) => ({
  url: `https://news.example.org/${marker}/${n}`,
  title: `${marker} story ${n}`,
  content: `The ${marker} project reported development ${n}.`,
});

// Jitter 0.1% of the interval (default 10%): the first checks of 60-minute monitors then start within 3.6 s, not 10 s.
const embeddedConfig = {
  search: { defaultEngines: ['searxng'] },
  rateLimitPerMinute: 100_000,
  webhooks: { backoffBaseMs: 200, timeoutMs: 30_000 },
  monitor: { jitterShare: 0.001 },
};

describe('a monitor survives SIGKILL', () => {
  let instance: QuarryProcess;
  let dataDir: string;
  const ids: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  let before: Record<string, any> = {};

  const get = (path: string) => instance.get(path, KEY);
  const post = (path: string, body: unknown = {}) => instance.post(path, body, KEY);
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(ids).map(async ([name, id]) => [
          name,
          { monitor: (await get(`${BASE}/${id}`)).body, results: (await get(`${BASE}/${id}/results`)).body },
        ]),
      ),
    );
  const restart = async () => {
    instance.kill('SIGKILL');
    expect((await instance.exited).signal).toBe('SIGKILL');
    instances.forget(instance);
    instance = await instances.start({ config: embeddedConfig, dataDir });
  };
  /** The parts of a monitor a crash must not change (the check and delivery state moves on). */
  const settled = (monitor: any) => ({
    ...monitor,
    last_checked: undefined,
    alerts_sent: undefined,
    next_check_at: undefined,
    check_in_progress: undefined,
    checks_run: undefined,
    results_stored: undefined,
    last_check: undefined,
    deliveries: undefined,
  });

  beforeAll(async () => {
    instance = await instances.start({ config: embeddedConfig });
    dataDir = instance.dataDir;
    for (const [name, extra] of [
      ['checked', { webhook_url: web.webhookUrl('crash-check') }],
      ['delivered', { webhook_url: web.webhookUrl('crash-deliver') }],
      ['quiet', { sources: ['news.example.org'] }],
    ] as const) {
      feed.set(`crash${name}`, [item(`crash${name}`, 1)]);
      const created = await post(BASE, {
        topic: `crash${name} watch`,
        keywords: [`crash${name}`],
        check_interval_minutes: 60,
        ...extra,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids[name] = created.body.id;
      secrets[name] = created.body.webhook_secret;
    }
  }, 60_000);

  it('in the middle of a check: after the restart the check completes, its alert arrives once, and everything else is as it was', {
    timeout: 120_000,
  }, async () => {
    await until(
      'the first checks',
      async () =>
        (
          await Promise.all(Object.values(ids).map(async (id) => (await get(`${BASE}/${id}`)).body.checks_run >= 1))
        ).every(Boolean),
      30_000,
    );
    // The first check alerts (the default): that alert is in before the crash.
    const [first] = await web.waitForWebhook('crash-check', 1, 30_000);
    expect(
      (new Webhook(secrets.checked!).verify(first!.body, first!.headers) as any).new_results.map(
        (r: { url: string }) => r.url,
      ),
    ).toEqual([item('crashchecked', 1).url]);
    await until(
      'the first alert to be counted',
      async () => (await get(`${BASE}/${ids.checked}`)).body.alerts_sent === 1,
      10_000,
    );
    before = await snapshot();
    expect(before.quiet.monitor.next_check_at).not.toBeNull();

    feed.publish('crashchecked', item('crashchecked', 2));
    web.answerEngine('searxng', feed.answerer(), { delayMs: 4000 });
    const searches = feed.queriesFor('crashchecked').length;
    await post(`${BASE}/${ids.checked}/check`);
    await until('the check to be searching', async () => feed.queriesFor('crashchecked').length > searches, 10_000);
    await restart();
    web.answerEngine('searxng', feed.answerer());

    const [, delivery] = await web.waitForWebhook('crash-check', 2, 60_000);
    const payload = new Webhook(secrets.checked!).verify(delivery!.body, delivery!.headers) as any;
    expect(payload.new_results.map((r: { url: string }) => r.url)).toEqual([item('crashchecked', 2).url]);
    // Nothing lost, nothing repeated: once the monitor records both alerts as delivered and none still
    // pending (a repeat would be a pending delivery first), the first check's alert and the
    // interrupted check's arrived once each.
    await until(
      'both alerts to be delivered',
      async () => {
        const { alerts_sent, deliveries } = (await get(`${BASE}/${ids.checked}`)).body;
        return (
          alerts_sent === 2 &&
          deliveries.length === 2 &&
          deliveries.every((d: { status: string }) => d.status === 'delivered')
        );
      },
      10_000,
    );
    expect(web.webhooks('crash-check')).toHaveLength(2);

    const after = await snapshot();
    for (const name of Object.keys(ids))
      expect(settled(after[name].monitor), name).toEqual(settled(before[name].monitor));
    // The quiet monitor's schedule is the one it had; its results are the ones it had.
    expect(after.quiet.monitor.next_check_at).toBe(before.quiet.monitor.next_check_at);
    expect(after.quiet.results).toEqual(before.quiet.results);
    expect(after.checked.results.slice(1)).toEqual(before.checked.results);
    expect(after.checked.results[0]).toMatchObject({ id: payload.result_id, new_results: payload.new_results });
    expect(after.checked.monitor.checks_run).toBe(2);
  });

  it('in the middle of a delivery: after the restart it arrives again with the same webhook-id, once, and nothing is alerted twice', {
    timeout: 120_000,
  }, async () => {
    // The "delivered" monitor's baseline alert went out before; this time its receiver hangs on a new alert.
    await until('the first alert', async () => web.webhooks('crash-deliver').length >= 1, 30_000);
    web.setWebhookHang('crash-deliver', 1);
    feed.publish('crashdelivered', item('crashdelivered', 2));
    await post(`${BASE}/${ids.delivered}/check`);
    const inFlight = await web.waitForWebhook('crash-deliver', 2, 30_000);
    expect(inFlight[1]!.status).toBe(0);
    const pendingId = inFlight[1]!.headers['webhook-id'];
    const beforeKill = await snapshot();
    await restart();

    const arrived = await web.waitForWebhook('crash-deliver', 3, 60_000);
    expect(arrived[2]!.headers['webhook-id']).toBe(pendingId);
    expect(arrived[2]!.status).toBe(200);
    for (const delivery of arrived) new Webhook(secrets.delivered!).verify(delivery.body, delivery.headers);
    expect(arrived[2]!.body).toBe(arrived[1]!.body);
    await until(
      'both alerts to be counted',
      async () => (await get(`${BASE}/${ids.delivered}`)).body.alerts_sent === 2,
      10_000,
    );

    const after = await snapshot();
    for (const name of Object.keys(ids)) {
      expect(settled(after[name].monitor), name).toEqual(settled(beforeKill[name].monitor));
      expect(after[name].results, name).toEqual(beforeKill[name].results);
    }
    expect(after.delivered.monitor.deliveries.map((d: any) => [d.webhook_id, d.status])).toEqual([
      [pendingId, 'delivered'],
      [arrived[0]!.headers['webhook-id'], 'delivered'],
    ]);

    // Checked again, nothing already alerted on is sent again.
    const runs = after.delivered.monitor.checks_run;
    await post(`${BASE}/${ids.delivered}/check`);
    const checked = await until(
      'another check',
      async () => {
        const monitor = (await get(`${BASE}/${ids.delivered}`)).body;
        return monitor.checks_run > runs && !monitor.check_in_progress && monitor;
      },
      20_000,
    );
    // The check is committed with nothing new, so no delivery was queued (an alert is queued with its check).
    expect(checked.last_check.new_results).toBe(0);
    expect(checked.deliveries).toHaveLength(2);
    expect(web.webhooks('crash-deliver')).toHaveLength(3);
  });
});

describe.runIf(hasRedisServer)('two instances on one Redis', () => {
  const redis = redisForThisSuite();
  afterEach(async () => {
    await instances.killAll();
  });

  it('run each scheduled check exactly once over several intervals', { timeout: 120_000 }, async () => {
    const config = { ...embeddedConfig, monitor: { testOnlyMinuteMs: 200, sweepIntervalSeconds: 1 } };
    const [a, b] = await Promise.all(
      [0, 1].map(() => instances.start({ env: { QUARRY_REDIS_URL: redis.url }, config })),
    );
    const markers = ['twina', 'twinb', 'twinc', 'twind', 'twine', 'twinf'];
    const ids: string[] = [];
    for (const [i, marker] of markers.entries()) {
      feed.set(marker, [item(marker, 1)]);
      const created = await (i % 2 ? b! : a!).post(
        BASE,
        { topic: `${marker} watch`, keywords: [marker], check_interval_minutes: 5 },
        KEY,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.id);
    }
    // 5 "minutes" of 200 ms: a check a second per monitor; several intervals pass, with both instances sweeping.
    const checksRun = async (id: string) => (await b!.get(`${BASE}/${id}`, KEY)).body;
    await until(
      'five checks of every monitor',
      async () => (await Promise.all(ids.map(checksRun))).every((m) => m.checks_run >= 5),
      30_000,
    );
    for (const id of ids) expect((await a!.post(`${BASE}/${id}/pause`, {}, KEY)).status).toBe(200);
    // A check already running when paused still commits: wait until none is.
    await until(
      'the running checks to commit',
      async () => (await Promise.all(ids.map(checksRun))).every((m) => !m.check_in_progress),
      10_000,
    );

    const runners = new Set<string>();
    for (const [i, id] of ids.entries()) {
      const monitor = (await b!.get(`${BASE}/${id}`, KEY)).body;
      expect(monitor.checks_run, id).toBeGreaterThanOrEqual(5);
      // Each committed check searched once: no check ran on both instances.
      expect(feed.queriesFor(markers[i]!).length, id).toBe(monitor.checks_run);
      for (let seq = 0; seq < monitor.checks_run; seq++) {
        const job = await redis.admin.hgetall(`quarry:jobs-monitors:check_${id}_${seq}`);
        expect(job.ats, `check_${id}_${seq} started`).toBe('1');
        if (job.pb) runners.add(job.pb);
      }
    }
    // The checks were shared between the two instances.
    expect([...runners].map((name) => Number(name.split(':').pop())).sort()).toEqual([a!.pid, b!.pid].sort());
  });
});
