/**
 * Upgrades that lose nothing: the current build started on the data that
 * release v0.1.0 wrote (test/fixtures/releases/v0.1.0, made by
 * scripts/make-release-fixture.mjs) finds every monitor (the active one still
 * scheduled), the corpus, the graph, the finished jobs and the webhook
 * delivery logs, embedded and on Redis; each store then carries its schema
 * version. Data stamped with a newer version stops start-up, untouched. And
 * `quarry backup` → wipe → `quarry restore` gives back a data directory with everything in it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { SqliteConnection } from '../../services/storage-versions/sqlite-connection.js';
import { DIRECTORY_MARKER_FILE } from '../../services/storage-versions/markers/directory-marker.js';
import { readSqliteVersion } from '../../services/storage-versions/markers/sqlite-marker.js';
import { startLocalSearch, type LocalSearch } from '../sandbox/local-search.js';
import { hasRedisServer, startLocalRedis, type LocalRedis } from '../sandbox/local-redis.js';
import { HEAT_PUMP_PAGES, renderResearchPage } from '../sandbox/research-pages.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { until } from '../sandbox/until.js';
import { spawnQuarry, type QuarryProcess } from './quarry-process.js';

const FIXTURE = join(PACKAGE_ROOT, 'test/fixtures/releases/v0.1.0');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8'));
const KEY: string = expected.api_key;

let web: SandboxWeb;
let search: LocalSearch;
const running: QuarryProcess[] = [];
const dirs: string[] = [];
let redis: LocalRedis | null = null;

/** A copy of part of the fixture in a temporary folder: the test never writes into the fixture. */
function copyOf(part: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-upgrade-'));
  dirs.push(dir);
  cpSync(join(FIXTURE, part), dir, { recursive: true });
  return dir;
}

async function start(dataDir: string, extra: Record<string, unknown> = {}): Promise<QuarryProcess> {
  const quarry = await spawnQuarry({
    web,
    dataDir,
    apiKeys: [KEY],
    config: {
      customEngines: [search.engineConfig('local_web', ['general'])],
      search: { defaultEngines: ['local_web'], defaultSingleEngine: 'local_web' },
      outbound: { allowHosts: [`127.0.0.1:${web.port}`, search.host] },
      ...extra,
    } as never,
  });
  running.push(quarry);
  return quarry;
}

beforeAll(async () => {
  web = await startSandboxWeb();
  for (const page of HEAT_PUMP_PAGES) web.addPage(page.path, renderResearchPage(page));
  search = await startLocalSearch(
    HEAT_PUMP_PAGES.map((p) => ({ url: web.url + p.path, title: p.title, text: p.paragraphs.join(' ') })),
  );
});

afterEach(async () => {
  for (const quarry of running.splice(0)) {
    quarry.kill('SIGKILL');
    await quarry.exited;
  }
  await redis?.stop();
  redis = null;
});

afterAll(async () => {
  await search?.close();
  await web?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Everything the release made, read back through the current build's API. */
async function expectEverythingFound(quarry: QuarryProcess, made: any): Promise<void> {
  const list = await quarry.get('/api/v1/monitor/topics', KEY);
  expect(list.status).toBe(200);
  expect(list.body.map((m: any) => m.id).sort()).toEqual(made.monitors.map((m: any) => m.id).sort());

  const [activeMade, pausedMade] = made.monitors;
  // Still scheduled: the release's schedule was taken over, not lost. A check the release left due runs
  // first (next_check_at is null while it runs, check_in_progress true); then the next one is queued.
  const active = await until(
    'the active monitor to have its next check queued',
    async () => {
      const read = await quarry.get(`/api/v1/monitor/topics/${activeMade.id}`, KEY);
      return read.body?.next_check_at ? read : null;
    },
    60_000,
  );
  expect(active.body).toMatchObject({ topic: activeMade.topic, status: 'active' });
  expect(Date.parse(active.body.next_check_at)).not.toBeNaN();
  expect(active.body.checks_run).toBeGreaterThanOrEqual(activeMade.checks_run);
  expect(active.body.deliveries).toContainEqual(
    expect.objectContaining({ webhook_id: activeMade.delivery, status: 'delivered' }),
  );
  const results = await quarry.get(`/api/v1/monitor/topics/${activeMade.id}/results`, KEY);
  expect(results.body.length).toBeGreaterThanOrEqual(activeMade.results_stored);
  const paused = await quarry.get(`/api/v1/monitor/topics/${pausedMade.id}`, KEY);
  expect(paused.body).toMatchObject({ topic: pausedMade.topic, status: 'paused', next_check_at: null });

  const corpus = await quarry.get(`/api/v1/rag/corpora/${made.corpus.id}`, KEY);
  expect(corpus.status).toBe(200);
  expect(corpus.body).toMatchObject({
    topic: made.corpus.topic,
    status: made.corpus.status,
    counts: made.corpus.counts,
  });
  expect(corpus.body.sources.map((s: any) => s.url)).toEqual(made.corpus.sources);
  const hits = await quarry.post(
    '/api/v1/rag/semantic-search',
    { corpus_id: made.corpus.id, query: made.corpus.query, min_relevance: 0 },
    KEY,
  );
  expect(hits.status).toBe(200);
  expect(hits.body.results[0].title).toBe(made.corpus.top_title);

  for (const entity of made.entities) {
    const found = await quarry.get(`/api/v1/knowledge/entities/${entity.id}`, KEY);
    expect(found.status, entity.name).toBe(200);
    expect(found.body.entity).toMatchObject({ id: entity.id, name: entity.name, type: entity.type });
  }
  const relationships = await Promise.all(
    made.relationships.map((r: any) => quarry.get(`/api/v1/knowledge/entities/${r.from}`, KEY)),
  );
  made.relationships.forEach((r: any, i: number) =>
    expect(relationships[i]!.body.relationships).toContainEqual(
      expect.objectContaining({ from_entity: r.from, type: r.type, to_entity: r.to }),
    ),
  );

  for (const job of made.jobs) {
    const status = await quarry.get(job.path, KEY);
    expect(status.status, job.kind).toBe(200);
    expect(status.body.status, job.kind).toBe(job.status);
    if (job.webhook) expect(status.body.webhook).toMatchObject(job.webhook);
    if (job.claims) expect(status.body.results).toHaveLength(job.claims);
  }
}

describe.runIf(existsSync(join(PACKAGE_ROOT, 'dist/hosts/cli/main.js')))('upgrade from v0.1.0', () => {
  it('embedded: the current build finds everything v0.1.0 stored, and stamps each store with its schema version', async () => {
    const dataDir = copyOf('embedded');
    const quarry = await start(dataDir);
    await expectEverythingFound(quarry, expected.embedded);
    quarry.kill('SIGTERM');
    await quarry.exited;
    running.splice(0);
    expect(await readSqliteVersion(join(dataDir, 'quarry.sqlite'))).toBe(1);
    expect(JSON.parse(readFileSync(join(dataDir, 'corpora', DIRECTORY_MARKER_FILE), 'utf8'))).toEqual({
      store: 'corpora',
      version: 1,
    });
    expect(JSON.parse(readFileSync(join(dataDir, 'page-index', DIRECTORY_MARKER_FILE), 'utf8'))).toEqual({
      store: 'page-index',
      version: 1,
    });
  }, 180_000);

  it.runIf(hasRedisServer)(
    'Redis: the current build on the release’s dump.rdb and data directory finds everything, and marks each ' +
      'Redis store',
    async () => {
      const redisDir = copyOf('.');
      redis = await startLocalRedis({ dir: redisDir });
      const dataDir = copyOf('redis-data');
      const quarry = await start(dataDir, { redisUrl: redis.url });
      await expectEverythingFound(quarry, expected.redis);
      const client = new Redis(redis.url);
      try {
        expect(await client.mget('quarry:schema:records', 'quarry:schema:graph', 'quarry:schema:jobs')).toEqual([
          '1',
          '1',
          '1',
        ]);
      } finally {
        client.disconnect();
      }
    },
    180_000,
  );

  it('backup → wipe → restore with the quarry CLI: the restored data directory serves everything again', async () => {
    const dataDir = copyOf('embedded');
    const first = await start(dataDir);
    first.kill('SIGTERM');
    await first.exited;
    running.splice(0);
    const work = mkdtempSync(join(tmpdir(), 'quarry-backup-cli-'));
    dirs.push(work);
    // The server's config (written into the data directory) names the data directory; keep it outside while wiping.
    const configPath = join(work, 'quarry.config.json');
    cpSync(join(dataDir, 'quarry.config.json'), configPath);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/hosts/cli/main.js'), ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: work, QUARRY_CONFIG: configPath },
        encoding: 'utf8',
      });
    const backupDir = join(work, 'backup');
    const backup = cli('backup', backupDir);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/records v1 \(quarry\.sqlite\), graph v1 .*corpora v1 \(corpora\), page-index v1/);

    rmSync(dataDir, { recursive: true, force: true });
    const restore = cli('restore', backupDir);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    const again = cli('restore', backupDir);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already holds stored data .*--force/);

    const restored = await start(dataDir);
    await expectEverythingFound(restored, expected.embedded);
  }, 180_000);

  it('refuses data stamped with a newer schema version: start-up stops naming store, versions and the way out; nothing is written', async () => {
    const dataDir = copyOf('embedded');
    const db = await SqliteConnection.open(join(dataDir, 'quarry.sqlite'), 'write');
    await db.run('PRAGMA user_version = 2');
    await db.close();
    const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    const before = digest(join(dataDir, 'quarry.sqlite'));
    const failure = await start(dataDir).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/exited \(1\) before listening/);
    expect(failure).toMatch(
      /the records store at .*quarry\.sqlite has schema version 2, but this release of Quarry supports up to version 1/,
    );
    expect(failure).toMatch(/newer release .* or restore a backup/);
    expect(digest(join(dataDir, 'quarry.sqlite'))).toBe(before);
    // Refused before any store was touched: the other stores are still unmarked.
    expect(existsSync(join(dataDir, 'corpora', DIRECTORY_MARKER_FILE))).toBe(false);
    const graph = readdirSync(join(dataDir, 'knowledge-graphs')).find((file) => file.endsWith('.sqlite'))!;
    expect(await readSqliteVersion(join(dataDir, 'knowledge-graphs', graph))).toBe('unmarked');
  }, 120_000);
});
