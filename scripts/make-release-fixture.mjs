#!/usr/bin/env node
/**
 * Writes the stored data of a released build as a test fixture: the upgrade
 * test (test/e2e/upgrade.test.ts) starts the current build on it and looks
 * for everything recorded here.
 *
 *   node scripts/make-release-fixture.mjs --release /work/wt/v010 --out test/fixtures/releases/v0.1.0
 *
 * --release is a built worktree of the release tag (git worktree add <dir> v0.1.0;
 * node_modules and models copied or linked in; npm run build there). The script
 * starts that build twice, through its own CLI (`quarry serve`), against a local
 * web served by the release's own sandbox (dist/test/sandbox): once embedded
 * (a fresh data directory) and once on a redis-server it starts (no persistence;
 * SAVE writes dump.rdb at the end). Each time it creates, through the HTTP API,
 * monitors (one active and scheduled, one paused), a RAG corpus (built from the
 * local pages, as a job), graph entities and relations, finished jobs (an async
 * search, a verify batch, the corpus build) and webhook deliveries (the search
 * job's and a monitor alert's, to a local receiver). Then it stops the server
 * with SIGTERM and copies the data directory (and dump.rdb) into --out, with
 * expected.json naming what was made.
 */
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';

const { values } = parseArgs({ options: { release: { type: 'string' }, out: { type: 'string' } } });
if (!values.release || !values.out) {
  process.stderr.write(
    'usage: node scripts/make-release-fixture.mjs --release <built release worktree> --out <fixture dir>\n',
  );
  process.exit(2);
}
const release = resolve(values.release);
const out = resolve(values.out);
const KEY = 'fixture-key-0123456789';
const TOPIC_TEXT =
  'Microsoft Corp. said on Tuesday that its chief executive, Satya Nadella, will visit London next month. ' +
  'Nadella told reporters that Microsoft (NASDAQ: MSFT) partnered with OpenAI last year. ' +
  'Apple CEO Tim Cook said the company would expand in Austin, Texas.';

const { startSandboxWeb } = await import(join(release, 'dist/test/sandbox/sandbox-web.js'));
const { startLocalSearch } = await import(join(release, 'dist/test/sandbox/local-search.js'));
const { HEAT_PUMP_PAGES, renderResearchPage } = await import(join(release, 'dist/test/sandbox/research-pages.js'));

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Polls until probe answers something truthy (each poll a real request). */
async function until(what, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    const value = await probe().catch((error) => void (last = error));
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`waited ${timeoutMs} ms for ${what}${last ? ` (last: ${last.message ?? last})` : ''}`);
    await sleep(200);
  }
}

async function startServer(dataDir, config) {
  const port = await freePort();
  const configPath = join(tmpdir(), `quarry-fixture-config-${port}.json`);
  writeFileSync(configPath, JSON.stringify({ dataDir, logLevel: 'info', ...config }));
  const child = spawn(process.execPath, [join(release, 'dist/hosts/cli/main.js'), 'serve'], {
    cwd: release,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      QUARRY_CONFIG: configPath,
      QUARRY_HOST: '127.0.0.1',
      QUARRY_PORT: String(port),
      QUARRY_API_KEYS: KEY,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let logs = '';
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  child.stderr.on('data', (chunk) => (logs += chunk.toString()));
  const url = await until(
    'the release to listen',
    async () => /listening on (http:\/\/[\d.:]+)/.exec(logs)?.[1],
    60_000,
  ).catch((error) => {
    throw new Error(`${error.message}\n${logs}`);
  });
  const call = async (method, path, body) => {
    const response = await fetch(url + path, {
      method,
      headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    if (response.status >= 400) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
    return parsed;
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    async stop() {
      child.kill('SIGTERM');
      const { code, signal } = await exited;
      rmSync(configPath, { force: true });
      if (code !== 0 && signal !== 'SIGTERM')
        throw new Error(`the release exited with ${code ?? signal}:\n${logs.slice(-2000)}`);
    },
  };
}

/** Everything the test will look for, made through the release's API. */
async function populate(quarry, web) {
  const finished = (s) => s.status === 'completed' || s.status === 'failed';
  const active = await quarry.post('/api/v1/monitor/topics', {
    topic: 'heat pump efficiency',
    keywords: ['heat pump'],
    check_interval_minutes: 60,
    engines: ['local_web'],
    webhook_url: web.webhookUrl('monitor'),
  });
  await quarry.post(`/api/v1/monitor/topics/${active.id}/check`, {});
  const checked = await until('the monitor check and its alert', async () => {
    const view = await quarry.get(`/api/v1/monitor/topics/${active.id}`);
    return view.checks_run >= 1 && view.deliveries[0]?.status === 'delivered' && !view.check_in_progress && view;
  });
  const paused = await quarry.post('/api/v1/monitor/topics', {
    topic: 'ground source loops',
    keywords: ['geothermal'],
    check_interval_minutes: 1440,
    engines: ['local_web'],
  });
  await quarry.post(`/api/v1/monitor/topics/${paused.id}/pause`, {});

  const research = await quarry.post('/api/v1/rag/research', { topic: 'heat pump', depth: 'quick', async: true });
  const researchPath = `/api/v1/rag/research/jobs/${research.job_id}`;
  const researchDone = await until('the corpus build', async () => {
    const status = await quarry.get(researchPath);
    return finished(status) && status;
  });
  if (researchDone.status !== 'completed')
    throw new Error(`the corpus build failed: ${JSON.stringify(researchDone).slice(0, 500)}`);
  const corpus = await quarry.get(`/api/v1/rag/corpora/${research.corpus_id}`);
  const corpusHit = await quarry.post('/api/v1/rag/semantic-search', {
    corpus_id: research.corpus_id,
    query: 'heat pump cold weather efficiency',
    min_relevance: 0,
  });

  const extracted = await quarry.post('/api/v1/knowledge/extract', {
    text: TOPIC_TEXT,
    source_url: 'https://news.example/nadella',
    published_date: '2025-03-04',
  });

  const search = await quarry.post('/api/v1/search/', {
    query: 'heat pump',
    engines: ['local_web'],
    async_mode: true,
    webhook_url: web.webhookUrl('search'),
  });
  // status_url is absolute (the server's own address, which the test's server will not have).
  const searchPath = new URL(search.status_url, 'http://x').pathname;
  const searchDone = await until('the async search and its webhook', async () => {
    const status = await quarry.get(searchPath);
    if (!(status.status === 'completed' && status.webhook?.status === 'delivered'))
      throw new Error(JSON.stringify(status).slice(0, 600));
    return status;
  });
  const verify = await quarry.post('/api/v1/verify/batch', {
    claims: [
      'An air-source heat pump loses efficiency in very cold weather',
      'Heat pumps move heat rather than burn fuel',
    ],
    wait_seconds: 0,
  });
  const verifyDone = await until('the verify batch', async () => {
    const status = await quarry.get(verify.poll_url);
    return finished(status) && status;
  });

  return {
    monitors: [
      {
        id: active.id,
        topic: active.topic,
        status: 'active',
        checks_run: checked.checks_run,
        results_stored: checked.results_stored,
        delivery: checked.deliveries[0].webhook_id,
      },
      { id: paused.id, topic: paused.topic, status: 'paused' },
    ],
    corpus: {
      id: research.corpus_id,
      topic: corpus.topic,
      status: corpus.status,
      counts: corpus.counts,
      sources: corpus.sources.map((s) => s.url),
      query: 'heat pump cold weather efficiency',
      top_title: corpusHit.results[0]?.title ?? null,
    },
    entities: extracted.entities.map((e) => ({ id: e.id, name: e.name, type: e.type })),
    relationships: extracted.relationships.map((r) => ({ from: r.from_entity, type: r.type, to: r.to_entity })),
    jobs: [
      { kind: 'rag.research', id: research.job_id, path: researchPath, status: researchDone.status },
      {
        kind: 'search',
        id: search.request_id,
        path: searchPath,
        status: searchDone.status,
        webhook: { status: searchDone.webhook.status, webhook_id: searchDone.webhook.webhook_id },
      },
      {
        kind: 'verify.batch',
        id: verify.job_id,
        path: verify.poll_url,
        status: verifyDone.status,
        claims: verifyDone.results?.length ?? null,
      },
    ],
  };
}

async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-fixture-redis-'));
  const port = await freePort();
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const exited = new Promise((done) => child.once('exit', done));
  await until(
    'redis-server',
    async () => {
      try {
        return (
          execFileSync('/usr/bin/redis-cli', ['-p', String(port), 'PING'], { stdio: ['ignore', 'pipe', 'ignore'] })
            .toString()
            .trim() === 'PONG'
        );
      } catch {
        return false;
      }
    },
    10_000,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    /** SAVE, then the dump file's path. */
    save() {
      execFileSync('/usr/bin/redis-cli', ['-p', String(port), 'SAVE']);
      return join(dir, 'dump.rdb');
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The data directory as the release left it, without what is not state (the config written per run, downloaded models).
 */
function copyDataDir(from, to) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, {
    recursive: true,
    filter: (path) => !/[/\\](models|quarry\.config\.json)$/.test(path) && !path.endsWith('.lock'),
  });
}

const web = await startSandboxWeb();
for (const page of HEAT_PUMP_PAGES) web.addPage(page.path, renderResearchPage(page));
const search = await startLocalSearch(
  HEAT_PUMP_PAGES.map((p) => ({
    url: web.url + p.path,
    title: p.title,
    text: p.paragraphs.join(' '),
    ...(p.published ? { published: p.published } : {}),
  })),
);
const config = {
  customEngines: [search.engineConfig('local_web', ['general'])],
  search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
  outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host], retries: 0 },
};
const work = mkdtempSync(join(tmpdir(), 'quarry-fixture-'));
// The API key matters: monitors, corpora, jobs and the graph belong to the key that made them.
const expected = {
  release: 'v0.1.0',
  made_by: 'scripts/make-release-fixture.mjs',
  made_at: new Date().toISOString(),
  api_key: KEY,
};
try {
  mkdirSync(out, { recursive: true });

  const embeddedDir = join(work, 'embedded');
  const embedded = await startServer(embeddedDir, config);
  expected.embedded = await populate(embedded, web);
  await embedded.stop();
  copyDataDir(embeddedDir, join(out, 'embedded'));

  const redis = await startRedis();
  const redisDataDir = join(work, 'redis');
  const shared = await startServer(redisDataDir, { ...config, redisUrl: redis.url });
  expected.redis = await populate(shared, web);
  await shared.stop();
  copyDataDir(redisDataDir, join(out, 'redis-data'));
  cpSync(redis.save(), join(out, 'dump.rdb'));
  await redis.stop();

  writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await search.close();
  await web.close();
  rmSync(work, { recursive: true, force: true });
}
if (!existsSync(join(out, 'expected.json'))) process.exitCode = 1;
