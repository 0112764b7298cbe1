/**
 * npm run bench:search — the service's own overhead over the slowest engine.
 *
 * Three engines are played from real captures by the sandbox web at fixed
 * latencies (50, 120 and 300 ms), in a process of their own (engine-host.ts)
 * as real engines are elsewhere: serving their 400 kB pages must not load the
 * server's heap and event loop. The rounds are driven from a third process
 * (round-driver.ts), one client for both halves of a round: the floor, the
 * same three requests fetched in parallel with nothing else done, then the
 * service figure, a full POST /api/v1/search/ (scrape off, cache off, parsing
 * and merging included). Overhead = service latency − floor latency, per
 * round; 200 rounds, because the p95 of 60 moved by 10 ms between runs of one
 * build.
 * Then cached searches are driven by concurrent clients in another process
 * (load-client.ts), beside GET /healthz on the same server as the baseline,
 * in warmed alternating pairs (throughput-pairs.ts), twice:
 * - with node:http's client, what Node programs use. It is the figure the
 *   target is set against, and it is the client's rate as much as the
 *   server's: the report says how busy each side was;
 * - with autocannon, light enough that the server's core saturates: the
 *   server's capacity. Beside it, fastify alone sending the same reply bytes
 *   for the same request (fastify-floor.ts): what the framework reaches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQuarry } from '../app/create-quarry.js';
import { buildHttpServer } from '../hosts/http/server.js';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BENCH_ENGINES } from '../test/recordings.js';
import type { EngineHostReady } from './engine-host.js';
import type { RoundPlan, RoundTimes } from './round-driver.js';
import { measureThroughput, type LoadClient } from './load-client.js';
import { startFastifyFloor } from './fastify-floor.js';
import { coresBusy, pairedRatio, type PairedRatio } from './throughput-pairs.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = 5;
const CACHED_SECONDS = Number(process.env.BENCH_CACHED_SECONDS ?? 3);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
/** Pairs for each server-bound figure: fewer, to keep the bench near its former length. */
const SERVER_BOUND_PAIRS = Number(process.env.BENCH_SERVER_BOUND_PAIRS ?? 3);
const WARM_SECONDS = 2;
const CONCURRENCY = 16;
const KEY = 'bench-key-0123456789';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The first message of a forked helper; its exit before one is a failure naming it. */
async function firstMessage<T>(child: ChildProcess, name: string): Promise<T> {
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) =>
      Promise.reject(new Error(`${name} exited (${String(code)}) before it answered`)),
    ),
  ])) as [T];
  return message;
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const latencies = [50, 120, 300];
  const engineHost = fork(fileURLToPath(new URL('./engine-host.js', import.meta.url)), {
    env: { ...process.env, BENCH_ENGINE_LATENCIES: latencies.join(',') },
  });
  const web = await firstMessage<EngineHostReady>(engineHost, 'the engine host');
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  const app = await createQuarry({
    env: {},
    overrides: {
      dataDir,
      apiKeys: [KEY],
      logLevel: 'silent',
      rateLimitPerMinute: 10_000_000,
      outbound: { allowHosts: [`127.0.0.1:${web.port}`], retries: 0, perHostConcurrency: 64 },
      engines: Object.fromEntries(BENCH_ENGINES.map((id) => [id, { baseUrl: web.baseUrls[id]! }])),
    },
  });
  const server = await buildHttpServer(app, { apiKeys: [KEY] });
  const base = await server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
  const body = (cache: number) =>
    JSON.stringify({
      query: 'hello',
      engines: BENCH_ENGINES,
      scrape_content: false,
      cache_ttl: cache,
      max_results: 10,
      relevance_filter: false,
    });

  // The floor: the engines' own URLs, fetched in parallel, bodies read, nothing else.
  const engineUrls = BENCH_ENGINES.map((id) =>
    app.engines.get(id).definition.buildRequest({
      query: { query: 'hello', page: 1, language: 'en', safeSearch: 1 },
      settings: app.engines.settings(id),
      manifest: app.engines.get(id).manifest,
    }),
  );
  const driver = fork(fileURLToPath(new URL('./round-driver.js', import.meta.url)));
  const plan: RoundPlan = {
    engineRequests: engineUrls,
    searchUrl: `${base}/api/v1/search/`,
    headers,
    body: body(0),
    rounds: ROUNDS,
    warmup: WARMUP,
    engines: BENCH_ENGINES.length,
  };
  driver.send(plan);
  const times = await firstMessage<RoundTimes>(driver, 'the round driver');
  if ('error' in times) throw new Error(times.error);
  const { floor, service } = times;
  const overhead = service.map((s, i) => s - floor[i]!);

  const primed = await fetch(`${base}/api/v1/search/`, { method: 'POST', headers, body: body(3600) });
  const cachedReply = {
    body: Buffer.from(await primed.arrayBuffer()),
    contentType: primed.headers.get('content-type') ?? 'application/json',
  };
  const health = await (await fetch(`${base}/healthz`)).json();
  const ratioOn = (at: string, client: LoadClient, pairs: number): Promise<PairedRatio> =>
    pairedRatio(
      (seconds) =>
        measureThroughput(`${at}/api/v1/search/`, seconds, CONCURRENCY, { headers, body: body(3600) }, client),
      (seconds) => measureThroughput(`${at}/healthz`, seconds, CONCURRENCY, undefined, client),
      { pairs, seconds: CACHED_SECONDS, warmSeconds: WARM_SECONDS, what: `${client} on ${at}` },
    );
  const byNodeHttp = await ratioOn(base, 'node-http', PAIRS);
  const byAutocannon = await ratioOn(base, 'autocannon', SERVER_BOUND_PAIRS);
  const bareFastify = await startFastifyFloor('/api/v1/search/', cachedReply, health);
  const bareRatio = await ratioOn(bareFastify.base, 'autocannon', SERVER_BOUND_PAIRS).finally(() =>
    bareFastify.close(),
  );
  const loadAfter = loadavg()[0]!;

  const fmt = (n: number) => n.toFixed(1).padStart(8);
  process.stdout.write(
    [
      `bench:search — engines ${BENCH_ENGINES.join(', ')} at ${latencies.join('/')} ms; ${ROUNDS} rounds; scrape off`,
      '',
      '                          p50 ms    p95 ms',
      `floor (parallel fetch) ${fmt(percentile(floor, 50))}  ${fmt(percentile(floor, 95))}`,
      `quarry search          ${fmt(percentile(service, 50))}  ${fmt(percentile(service, 95))}`,
      `overhead over floor    ${fmt(percentile(overhead, 50))}  ${fmt(percentile(overhead, 95))}   (target p50 ≤ 10 ms, p95 ≤ 15 ms; SearXNG ≈ 90 ms)`,
      `ratio quarry/floor     ${fmt(percentile(service, 50) / percentile(floor, 50))}`,
      '',
      ...cachedReport(byNodeHttp, byAutocannon, bareRatio),
      `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after: figures from a loaded machine are pessimistic`,
      '',
    ].join('\n'),
  );
  await server.close();
  await app.close();
  engineHost.disconnect();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The cached-search lines of the report. */
function cachedReport(byNodeHttp: PairedRatio, byAutocannon: PairedRatio, bare: PairedRatio): string[] {
  const ratios = (paired: PairedRatio) =>
    paired.pairs
      .map((p) => p.ratio)
      .sort((a, b) => a - b)
      .map((r) => r.toFixed(2))
      .join(', ');
  const { measured: cached, baseline: health, ratio } = byNodeHttp.median;
  const server = byAutocannon.median;
  return [
    `cached searches: ${cached.perSecond.toFixed(0)} req/s vs GET /healthz ${health.perSecond.toFixed(0)} req/s on the same server (ratio ${ratio.toFixed(2)}, target ≥ 0.6), ${CONCURRENCY} concurrent node:http clients; the median of ${byNodeHttp.pairs.length} warm pairs of ${CACHED_SECONDS} s (ratios ${ratios(byNodeHttp)})`,
    `server CPU per request: cached search ${cached.cpuMsPerRequest.toFixed(3)} ms, /healthz ${health.cpuMsPerRequest.toFixed(3)} ms (ratio ${(health.cpuMsPerRequest / cached.cpuMsPerRequest).toFixed(2)}); the clients ${cached.clientCpuMsPerRequest.toFixed(3)} / ${health.clientCpuMsPerRequest.toFixed(3)} ms`,
    // Near 1 core, that side set the rate: node:http's client usually sets /healthz's, so this ratio is not the
    // server's alone.
    `cores busy (server / client): cached ${coresBusy(cached.perSecond, cached.cpuMsPerRequest).toFixed(2)} / ${coresBusy(cached.perSecond, cached.clientCpuMsPerRequest).toFixed(2)}, /healthz ${coresBusy(health.perSecond, health.cpuMsPerRequest).toFixed(2)} / ${coresBusy(health.perSecond, health.clientCpuMsPerRequest).toFixed(2)}`,
    // Per pair, in the order run: a low pair shows whether the server or the client paid more per request then.
    `per pair (ratio: server cached / healthz ms, client cached / healthz ms): ${byNodeHttp.pairs.map((p) => `${p.ratio.toFixed(2)}: ${p.measured.cpuMsPerRequest.toFixed(3)} / ${p.baseline.cpuMsPerRequest.toFixed(3)}, ${p.measured.clientCpuMsPerRequest.toFixed(3)} / ${p.baseline.clientCpuMsPerRequest.toFixed(3)}`).join('; ')}`,
    `server-bound (autocannon; the server's core saturates): cached ${server.measured.perSecond.toFixed(0)} vs /healthz ${server.baseline.perSecond.toFixed(0)} req/s, ratio ${server.ratio.toFixed(2)} (ratios ${ratios(byAutocannon)}); server CPU ${server.measured.cpuMsPerRequest.toFixed(3)} / ${server.baseline.cpuMsPerRequest.toFixed(3)} ms, cores busy ${coresBusy(server.measured.perSecond, server.measured.cpuMsPerRequest).toFixed(2)} / ${coresBusy(server.baseline.perSecond, server.baseline.cpuMsPerRequest).toFixed(2)}`,
    `  fastify alone (no key check, no rate limit) sending the same reply bytes for the same request: ratio ${bare.median.ratio.toFixed(2)} (${bare.median.measured.perSecond.toFixed(0)} vs ${bare.median.baseline.perSecond.toFixed(0)} req/s; ratios ${ratios(bare)}): what the framework reaches with this request and answer`,
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:search failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
