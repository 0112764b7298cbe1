/**
 * npm run bench:monitor — how far one instance goes with monitors: N
 * monitors (default 1,000) with short intervals against the local test web
 * (a SearXNG-format engine whose results change every few seconds, and a
 * webhook receiver), run in this process on the default embedded backend,
 * or on BullMQ with --redis (a local redis-server is started).
 *
 * Prints checks/s over the measured window (after the first interval),
 * scheduling lag p50/p95/max (a scheduled check's start minus its due
 * time, jitter included in the due time), alerts delivered, and memory.
 *
 * Options: --monitors N (1000), --interval-seconds S (30), --seconds T
 * (how long to measure after the warm-up interval, default 60), --redis.
 */
import { parseArgs } from 'node:util';
import type { MonitorCheckedEvent } from '../app/events.js';
import { startQuarry } from '../test/e2e/harness.js';
import { startLocalRedis, type LocalRedis } from '../test/sandbox/local-redis.js';
import { startSandboxWeb } from '../test/sandbox/sandbox-web.js';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    'interval-seconds': { type: 'string', default: '30' },
    seconds: { type: 'string', default: '60' },
    redis: { type: 'boolean', default: false },
  },
});
const MONITORS = Number(values.monitors);
const INTERVAL_S = Number(values['interval-seconds']);
const MEASURE_S = Number(values.seconds);
/** check_interval_minutes of every monitor; a "minute" is stretched or shrunk to make the interval INTERVAL_S. */
const INTERVAL_MINUTES = 5;
/** A new story per topic this often. */
const EDITION_MS = 10_000;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function main(): Promise<void> {
  const web = await startSandboxWeb();
  // Topic "benchmonN": five stories, the newest changing every EDITION_MS.
  web.answerEngine('searxng', (request) => {
    const marker = /benchmon\d+/.exec(request.searchParams.get('q') ?? '')?.[0] ?? 'none';
    const edition = Math.floor(Date.now() / EDITION_MS);
    const results = Array.from({ length: 5 }, (_, i) => ({
      url: `https://news.example.org/${marker}/${edition - i}`,
      title: `${marker} story ${edition - i}`,
      content: `What happened to ${marker} in edition ${edition - i}.`,
      engine: 'sandbox',
      score: 1 / (i + 1),
    }));
    return {
      body: Buffer.from(JSON.stringify({ query: marker, results })),
      contentType: 'application/json',
      status: 200,
    };
  });
  let redis: LocalRedis | null = null;
  if (values.redis) redis = await startLocalRedis();
  const quarry = await startQuarry(web, {
    search: { defaultEngines: ['searxng'] },
    rateLimitPerMinute: 10_000_000,
    // The default quotas (100 monitors, 600 checks an hour per key) would refuse the bench's own monitors.
    quotas: { monitors: 1_000_000, monitorChecksPerHour: 10_000_000 },
    monitor: { testOnlyMinuteMs: Math.round((INTERVAL_S * 1000) / INTERVAL_MINUTES) },
    ...(redis ? { redisUrl: redis.url } : {}),
  });
  const events: MonitorCheckedEvent[] = [];
  quarry.app.services.events.on('monitor.checked', (event) => events.push(event));

  const hook = web.webhookUrl('bench');
  const createdAt = Date.now();
  for (let i = 0; i < MONITORS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, MONITORS - i) }, async (_, j) => {
        const answer = await quarry.post('/api/v1/monitor/topics', {
          topic: `benchmon${i + j} news`,
          keywords: [`benchmon${i + j}`],
          check_interval_minutes: INTERVAL_MINUTES,
          webhook_url: hook,
          alert_on_first_check: false,
        });
        if (answer.status !== 200) throw new Error(`create failed: ${JSON.stringify(answer.body)}`);
      }),
    );
  }
  const createSeconds = (Date.now() - createdAt) / 1000;
  // Warm up for one interval (the baselines), then measure.
  await new Promise((resolve) => setTimeout(resolve, INTERVAL_S * 1000));
  const from = Date.now();
  const deliveredBefore = web.webhooks('bench').length;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 1000);
  await new Promise((resolve) => setTimeout(resolve, MEASURE_S * 1000));
  const to = Date.now();
  clearInterval(sampler);
  const window = events.filter((event) => event.finishedAt >= from && event.finishedAt < to);
  const lags = window
    .filter((event) => event.scheduledFor !== null)
    .map((event) => event.startedAt - event.scheduledFor!)
    .sort((a, b) => a - b);
  const memory = process.memoryUsage();
  const rows = {
    backend: quarry.app.services.jobs.backend,
    monitors: MONITORS,
    'interval (s)': INTERVAL_S,
    'due checks/s': Math.round((MONITORS / INTERVAL_S) * 10) / 10,
    'create (s)': Math.round(createSeconds * 10) / 10,
    'checks/s': Math.round((window.length / ((to - from) / 1000)) * 10) / 10,
    'lag p50 (ms)': Math.round(percentile(lags, 50)),
    'lag p95 (ms)': Math.round(percentile(lags, 95)),
    'lag max (ms)': Math.round(lags.at(-1) ?? NaN),
    'alerts delivered/s':
      Math.round(((web.webhooks('bench').length - deliveredBefore) / ((to - from) / 1000)) * 10) / 10,
    'rss peak': mb(Math.max(peakRss, memory.rss)),
    'heap used': mb(memory.heapUsed),
  };
  console.log(`| ${Object.keys(rows).join(' | ')} |`);
  console.log(
    `| ${Object.keys(rows)
      .map(() => '---')
      .join(' | ')} |`,
  );
  console.log(`| ${Object.values(rows).join(' | ')} |`);
  await quarry.close();
  await web.close();
  await redis?.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
